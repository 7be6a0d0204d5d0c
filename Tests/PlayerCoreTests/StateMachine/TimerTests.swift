import Foundation
import PlayerCore
import Testing

/// Every decision that involves time is the machine's: it asks for timers on the player's clock
/// (`scheduleTimer`), drops the ones its state no longer implies (`cancelTimer`), and decides what
/// a due timer means. No test here waits: timers fire when the test says they do.
@Suite("Timers")
struct TimerTests {
    static func rendering() -> PlayerStateMachine.Configuration {
        var config = Fixture.config()
        config.underrunGrace = 8
        return config
    }

    @Test func anUnderrunInRealTimeIsBufferingAtOnceAndTimesOutIntoAReconnect() throws {
        var d = try Driver.live()
        let effects = try d.send(.underrun(.a), at: 100)
        #expect(d.state.name == .buffering)
        #expect(effects == [.scheduleTimer(.underrunTimeout, at: PlayerTime(seconds: 130))])
        let due = try #require(d.lastScheduled(.bufferingTimeout))
        try d.send(.timerFired(due.timer, at: due.at))
        guard case .reconnecting(_, 1, _, _?, let cause) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(cause.code == .bufferingTimeout)
        // The reconnect countdown replaced the buffering deadline.
        #expect(d.lastScheduled(.retry) != nil)
    }

    @Test func aRefillCancelsTheBufferingDeadlineAndALateFiringChangesNothing() throws {
        var d = try Driver.live()
        try d.send(.underrun(.a), at: 100)
        let due = try #require(d.lastScheduled(.bufferingTimeout))
        let refilled = try d.send(.refilled(.a), at: 101)
        #expect(refilled == [.cancelTimer(.bufferingTimeout)])
        #expect(try d.send(.timerFired(due.timer, at: due.at)).isEmpty)
        #expect(d.state.name == .playing)
    }

    @Test func aLocalFileThatUnderrunsHasNoNetworkDeadline() throws {
        var d = try Driver.playing(Fixture.stage1)
        let effects = try d.send(.underrun(.a), at: 5)
        #expect(d.state.name == .buffering)
        #expect(effects.isEmpty)
    }

    @Test func whileRenderingOnlyAWaitAsLongAsTheGraceIsShownAsBuffering() throws {
        var d = try Driver.playing(Fixture.episode("e"), config: Self.rendering())
        // A short wait for the network: the state stays playing, one check is armed.
        #expect(try d.send(.underrun(.a), at: 0) == [.scheduleTimer(.starvationCheck, at: PlayerTime(seconds: 8))])
        #expect(d.state.name == .playing)
        #expect(try d.send(.refilled(.a), at: 1).isEmpty, "a refill does not move the check")
        // Another wait begins at 5 s; the check at 8 s finds it too young and looks again at 13 s.
        #expect(try d.send(.underrun(.a), at: 5).isEmpty)
        #expect(try d.send(.timerFired(.starvationCheck, at: PlayerTime(seconds: 8))) == [
            .scheduleTimer(.starvationCheck, at: PlayerTime(seconds: 13))
        ])
        #expect(d.state.name == .playing)
        // At 13 s the render has waited 8 s: buffering, with the buffering timeout counted from 5 s.
        let shown = try d.send(.timerFired(.starvationCheck, at: PlayerTime(seconds: 13)))
        #expect(d.state == .buffering(track: Fixture.episode("e"), progress: 0, reason: .underrun))
        #expect(shown == [.scheduleTimer(.underrunTimeout, at: PlayerTime(seconds: 35))])
        // Data comes: playing again, the deadline dropped.
        #expect(try d.send(.refilled(.a), at: 14) == [.cancelTimer(.bufferingTimeout)])
        #expect(d.state.name == .playing)
    }

    @Test func aCheckThatFindsDataFlowingChangesNothing() throws {
        var d = try Driver.playing(Fixture.episode("e"), config: Self.rendering())
        try d.send(.underrun(.a), at: 0)
        try d.send(.refilled(.a), at: 0.2)
        #expect(try d.send(.timerFired(.starvationCheck, at: PlayerTime(seconds: 8))).isEmpty)
        #expect(d.state.name == .playing)
    }

    @Test func leavingAStateCancelsItsTimers() throws {
        var d = try Driver.reconnecting()
        #expect(d.lastScheduled(.retry) != nil)
        let stopped = try d.send(.stop)
        #expect(stopped.contains(.cancelTimer(.retry)))
        #expect(d.machine.state == .idle)
    }

    @Test func aRetryTimerFiresOnce() throws {
        var d = try Driver.reconnecting()
        let due = try #require(d.lastScheduledRetry)
        try d.send(.timerFired(.retry(attempt: due.attempt), at: due.at))
        #expect(d.state.name == .preparing)
        #expect(try d.send(.timerFired(.retry(attempt: due.attempt), at: due.at)).isEmpty)
        #expect(d.state.name == .preparing)
    }

    @Test func anIntentStartsItsTimersAtTheInstantItWasHandled() throws {
        var d = Driver(Fixture.config())
        try d.send(.play(Fixture.request(Fixture.live())), at: 50)
        let load = try #require(d.lastLoad)
        #expect(d.effects.contains(.scheduleTimer(.stillConnecting(load), at: PlayerTime(seconds: 50 + Fixture.config().stillConnectingAfter))))
        #expect(d.effects.contains(.scheduleTimer(.openingTimeout(load), at: PlayerTime(seconds: 50 + Fixture.config().bufferingTimeout))))
    }
}
