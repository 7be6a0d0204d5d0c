import PlayerCore
import PresentationFixtures
import Testing

@Suite struct SamplesTests {
    @Test func samplesCoverEveryPlayerStateCase() {
        let names = Set(Samples.states.map(\.state.name))
        #expect(names == Set(PlayerState.Name.allCases))
    }

    @Test(arguments: Samples.states)
    func everySampleIsValid(_ sample: Sample) {
        #expect(sample.state.isValid)
    }
}

extension Sample: CustomTestStringConvertible {
    public var testDescription: String { label }
}
