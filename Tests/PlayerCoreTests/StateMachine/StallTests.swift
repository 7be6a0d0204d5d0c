import Foundation
import PlayerCore
import Testing

/// Stalls are the machine's decision: a source only says when it runs dry and when bytes come
/// again; the machine gives a connection up once it has been dry for the stall timeout while
/// someone waits on it. No test here waits: timers fire when the test says they do.
@Suite("Stalls")
struct StallTests {
    static let timeout = ResilienceDefaults.stallTimeout

    @Test func aLiveSourceDryForTheStallTimeoutHasItsConnectionGivenUp() throws {
        var d = try Driver.live()
        #expect(try d.send(.stalled(.a, at: PlayerTime(seconds: 10))) == [
            .scheduleTimer(.stallCheck, at: PlayerTime(seconds: 10 + Self.timeout))
        ])
        #expect(d.state.name == .playing, "dry is a fact, not yet a verdict: buffered audio still plays")
        let effects = try d.send(.timerFired(.stallCheck, at: PlayerTime(seconds: 10 + Self.timeout)))
        guard case .abandonConnection(.a, let cause) = effects.first else {
            Issue.record("got \(effects)")
            return
        }
        #expect(cause.code == .stalled)
        // The next connection gets a wait of its own: the check is set again from now.
        #expect(effects.dropFirst() == [.scheduleTimer(.stallCheck, at: PlayerTime(seconds: 10 + 2 * Self.timeout))])
    }

    @Test func bytesAfterADrySpellEndIt_andTheTimerIsNotMovedForEachShortSpell() throws {
        var d = try Driver.live()
        try d.send(.stalled(.a, at: PlayerTime(seconds: 10)))
        #expect(try d.send(.receiving(.a, at: PlayerTime(seconds: 10.1))).isEmpty, "no cancel for a short spell")
        #expect(try d.send(.stalled(.a, at: PlayerTime(seconds: 12))).isEmpty, "no reschedule either")
        // The check at 18 s finds a spell of 6 s: too young, it looks again when it could be a stall.
        #expect(try d.send(.timerFired(.stallCheck, at: PlayerTime(seconds: 10 + Self.timeout))) == [
            .scheduleTimer(.stallCheck, at: PlayerTime(seconds: 12 + Self.timeout))
        ])
        try d.send(.receiving(.a, at: PlayerTime(seconds: 13)))
        // Bytes came: the last check decides nothing and drops the timer.
        #expect(try d.send(.timerFired(.stallCheck, at: PlayerTime(seconds: 12 + Self.timeout))).isEmpty)
        #expect(d.state.name == .playing)
    }

    @Test func whileOpeningADrySourceIsAConnectionTimeout() throws {
        var d = Driver(Fixture.config())
        try d.send(.play(Fixture.request(Fixture.live())), at: 0)
        try d.send(.stalled(.a, at: PlayerTime(seconds: 0.1)))
        let effects = try d.send(.timerFired(.stallCheck, at: PlayerTime(seconds: 0.1 + Self.timeout)))
        guard case .abandonConnection(.a, let cause) = effects.first else {
            Issue.record("got \(effects)")
            return
        }
        #expect(cause.code == .connectionTimeout)
        // The load then fails with that cause, and the one reconnect policy takes over.
        try d.send(.loadFailed(d.lastLoad!, cause, at: PlayerTime(seconds: 0.2 + Self.timeout)))
        #expect(d.state.name == .reconnecting)
    }

    @Test func whilePausedNobodyWaits_andTheWaitCountsAgainFromTheResume() throws {
        var d = try Driver.playing(Fixture.episode("e"))
        try d.send(.pause, at: 5)
        try d.send(.stalled(.a, at: PlayerTime(seconds: 6)))
        #expect(d.lastScheduled(.stall) == nil, "paused: no stall timer")
        let resumed = try d.send(.resume, at: 100)
        #expect(resumed.contains(.scheduleTimer(.stallCheck, at: PlayerTime(seconds: 100 + Self.timeout))))
        // Early (the clock said so): nothing is given up, and the check is set again for when it is due.
        #expect(try d.send(.timerFired(.stallCheck, at: PlayerTime(seconds: 100 + Self.timeout - 1))) == [
            .scheduleTimer(.stallCheck, at: PlayerTime(seconds: 100 + Self.timeout))
        ])
        let due = try d.send(.timerFired(.stallCheck, at: PlayerTime(seconds: 100 + Self.timeout)))
        #expect(due.contains { if case .abandonConnection(.a, _) = $0 { true } else { false } })
    }

    @Test func aLocalFileNeverStalls() throws {
        var d = try Driver.playing(Fixture.stage1)
        #expect(try d.send(.stalled(.a, at: PlayerTime(seconds: 1))).isEmpty)
        #expect(d.lastScheduled(.stall) == nil)
    }

    @Test func aStaleCheckAfterANewLoadOnTheDeckDecidesNothing() throws {
        var d = try Driver.live()
        try d.send(.stalled(.a, at: PlayerTime(seconds: 1)))
        // The deck fails and is reconnected: a new load on the same deck, before the check.
        try d.send(.errorOccurred(.a, PlaybackError(.connectionLost), at: PlayerTime(seconds: 2)))
        let retry = try #require(d.lastScheduledRetry)
        try d.send(.timerFired(.retry(attempt: retry.attempt), at: retry.at))
        #expect(d.state.name == .preparing)
        #expect(try d.send(.timerFired(.stallCheck, at: PlayerTime(seconds: 1 + Self.timeout))).allSatisfy {
            if case .abandonConnection = $0 { false } else { true }
        })
    }
}
