import Foundation
import PlayerCore
import Testing

/// Playback speed: what a speed and a change mean, that the machine keeps it as context, and that
/// crossfades cover their length of media time whatever the speed.
@Suite("Speed")
struct SpeedTests {
    @Test func speedsAreClampedToTheRangeInSteps() {
        #expect(PlaybackSpeed(1.52).rate == 1.5)
        #expect(PlaybackSpeed(1.53).rate == 1.55)
        #expect(PlaybackSpeed(5).rate == 3)
        #expect(PlaybackSpeed(0.1).rate == 0.5)
        #expect(PlaybackSpeed(.infinity) == .normal)
        #expect(PlaybackSpeed(1.15).rate == 1.15)
        #expect(PlaybackSpeed(1.5).description == "1.5×")
        #expect(PlaybackSpeed(2).description == "2×")
        #expect(PlaybackSpeed(0.75).description == "0.75×")
    }

    @Test func speedsParseAsListenersWriteThem() {
        #expect(PlaybackSpeed.parse("1.5") == PlaybackSpeed(1.5))
        #expect(PlaybackSpeed.parse("1.5x") == PlaybackSpeed(1.5))
        #expect(PlaybackSpeed.parse("150%") == PlaybackSpeed(1.5))
        #expect(PlaybackSpeed.parse("4") == nil)
        #expect(PlaybackSpeed.parse("fast") == nil)
        #expect(SpeedChange.parse("+0.25") == .by(0.25))
        #expect(SpeedChange.parse("-0.1") == .by(-0.1))
        #expect(SpeedChange.parse("2x") == .to(PlaybackSpeed(2)))
        #expect(SpeedChange.by(0.05).applied(to: PlaybackSpeed(3)) == PlaybackSpeed(3))
    }

    @Test func liveStreamsPlayAtNormalSpeed() {
        let speed = PlaybackSpeed(2)
        #expect(speed.rate(for: Fixture.live()) == 1)
        #expect(speed.rate(for: Fixture.stage1) == 2)
        #expect(speed.rate(for: nil) == 2)
    }

    @Test(arguments: IntentRejectionTests.samples.map(\.0))
    func everyStateTakesASpeedAndStaysItself(_ label: String) throws {
        var d = try IntentRejectionTests.samples.first { $0.0 == label }!.1()
        let before = d.machine.state
        let effects = try d.send(.setSpeed(.to(PlaybackSpeed(1.25))))
        #expect(d.machine.state == before)
        #expect(effects.filter { if case .setSpeed = $0 { true } else { false } } == [.setSpeed(PlaybackSpeed(1.25))])
        #expect(try d.send(.setSpeed(.by(0))).isEmpty)
    }

    /// A 10 s crossfade at 2x sounds for 5 s and begins 10 s of media before the end, so the
    /// outgoing item ends exactly as the fade does.
    @Test func aCrossfadeCoversItsMediaLengthAtAnySpeed() throws {
        var config = Fixture.config(crossfade: 10)
        config.speed = PlaybackSpeed(2)
        var d = try Driver.playing(Fixture.stage1, Fixture.stage2, config: config)
        try d.send(.positionChanged(.a, position: 586))
        #expect(d.state.name == .preparingCrossfade)
        let effects = try d.send(.loaded(d.lastLoad!, duration: 600))
        let scheduled = effects.compactMap { effect -> (Double, Double?)? in
            if case .scheduleCrossfade(_, _, let duration, _, let at) = effect { (duration, at) } else { nil }
        }
        #expect(scheduled.count == 1)
        #expect(scheduled.first?.0 == 5, "sounds for \(String(describing: scheduled.first?.0)) s")
        #expect(scheduled.first?.1 == 590, "begins at \(String(describing: scheduled.first?.1))")
    }
}
