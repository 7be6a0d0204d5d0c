import Foundation
import PlayerCore
import Testing

/// The listener's volume: what a level and a change mean, and that the machine keeps it as
/// context that no state change touches.
@Suite("Volume")
struct VolumeTests {
    @Test func levelsAreClampedAndRoundedToWholePercent() {
        #expect(Volume(0.504).level == 0.5)
        #expect(Volume(2).level == 1.5)
        #expect(Volume(-1).level == 0)
        #expect(Volume(.nan) == .full)
        #expect(Volume(0.5).percent == 50)
        #expect(abs(Volume(0.5).decibels - -6.02) < 0.01)
    }

    @Test func volumesParseAsFractionsOrPercentages() {
        #expect(Volume.parse("0.5") == Volume(0.5))
        #expect(Volume.parse("50%") == Volume(0.5))
        #expect(Volume.parse(" 120 % ") == Volume(1.2))
        #expect(Volume.parse("151%") == nil)
        #expect(Volume.parse("-5%") == nil)
        #expect(Volume.parse("loud") == nil)
        #expect(Volume.parse("") == nil)
        #expect(Volume.parse("1e3") == nil)
    }

    @Test func aSignMakesAChangeRelative() {
        #expect(VolumeChange.parse("+5%") == .by(0.05))
        #expect(VolumeChange.parse("-5%") == .by(-0.05))
        #expect(VolumeChange.parse("-0.1") == .by(-0.1))
        #expect(VolumeChange.parse("80%") == .to(Volume(0.8)))
        #expect(VolumeChange.parse("+") == nil)
        #expect(VolumeChange.parse("+500%") == nil)
        #expect(VolumeChange.by(0.05).applied(to: Volume(1.48)) == Volume(1.5))
        #expect(VolumeChange.by(-0.05).applied(to: Volume(0.02)) == Volume(0))
        #expect(VolumeChange.by(0.05).applied(to: Volume(0.5)) == Volume(0.55))
    }

    /// Every state accepts a volume change and stays as it was; the change is one effect, and a
    /// request that changes nothing is none.
    @Test(arguments: IntentRejectionTests.samples.map(\.0))
    func everyStateTakesAVolumeChangeAndStaysItself(_ label: String) throws {
        var d = try IntentRejectionTests.samples.first { $0.0 == label }!.1()
        let before = d.machine.state
        let effects = try d.send(.setVolume(.to(Volume(0.3))))
        #expect(d.machine.state == before, "\(label)")
        #expect(effects.filter { if case .setVolume = $0 { true } else { false } } == [.setVolume(Volume(0.3))], "\(label): \(effects)")
        #expect(d.machine.volume == Volume(0.3))
        #expect(try d.send(.setVolume(.to(Volume(0.3)))).allSatisfy { if case .setVolume = $0 { false } else { true } })
    }

    @Test func theVolumeOutlivesItemsAndStartsFromTheConfiguration() throws {
        var config = Fixture.config()
        config.volume = Volume(0.4)
        var d = try Driver.playing(Fixture.stage1, config: config)
        #expect(d.machine.volume == Volume(0.4))
        _ = try d.send(.setVolume(.by(-0.1)))
        _ = try d.send(.stop)
        _ = try d.send(.fadeOutCompleted)
        #expect(d.state.name == .finished)
        _ = try d.send(.play(Fixture.request(Fixture.stage2)))
        #expect(d.machine.volume == Volume(0.3))
    }

    @Test func aVolumeCommandIsAlwaysAnIntent() throws {
        for (label, make) in IntentRejectionTests.samples {
            let state = try make().machine.state
            #expect(PlayerCommand.volume(.by(0.05)).intent(in: state, position: nil) == .setVolume(.by(0.05)), "\(label)")
        }
    }
}
