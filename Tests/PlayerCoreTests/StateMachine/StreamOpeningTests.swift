import Foundation
import PlayerCore
import Presentation
import Testing

/// Opening a stream: "still connecting" told early, buffer progress, and how a 404 is read
/// depending on whether the mount had played (source gone) or never did (wrong address).
@Suite("Opening streams")
struct StreamOpeningTests {
    /// A live stream whose load is in flight (state `preparing`).
    func preparingLive() throws -> Driver {
        var d = Driver(Fixture.config())
        try d.send(.play(Fixture.request(Fixture.live())))
        #expect(d.state.name == .preparing)
        return d
    }

    /// Fires the still-connecting timer the machine asked for when the load began.
    func fireStillConnecting(_ d: inout Driver) throws {
        let due = try #require(d.lastScheduled(.stillConnecting))
        #expect(due.timer == .stillConnecting(d.lastLoad!))
        try d.send(.timerFired(due.timer, at: due.at))
    }

    @Test func stillConnectingIsAStateThenFillTakesOver() throws {
        var d = try preparingLive()
        try fireStillConnecting(&d)
        #expect(d.state == .buffering(track: Fixture.live(), progress: 0, reason: .connecting))
        #expect(d.state.statusText(in: .english) == "Still connecting…")
        #expect(d.state.statusText(in: .russian) == "Всё ещё подключаемся…")
        try d.send(.bufferProgress(d.lastLoadDeck!, fill: 0.4))
        #expect(d.state == .buffering(track: Fixture.live(), progress: 0.4, reason: .initial))
        try d.send(.loaded(d.lastLoad!, duration: nil))
        #expect(d.state == .playing(track: Fixture.live()))
    }

    @Test func aStillConnectingTimerOfAnotherLoadOrAfterPlayingChangesNothing() throws {
        var d = try preparingLive()
        let due = try #require(d.lastScheduled(.stillConnecting))
        try d.send(.timerFired(.stillConnecting(LoadID(999)), at: due.at))
        #expect(d.state.name == .preparing)
        let effects = try d.send(.loaded(d.lastLoad!, duration: nil))
        // Loaded: both opening timers are cancelled, and a late firing changes nothing.
        #expect(effects.contains(.cancelTimer(.stillConnecting)))
        #expect(effects.contains(.cancelTimer(.bufferingTimeout)))
        try d.send(.timerFired(due.timer, at: due.at))
        #expect(d.state.name == .playing)
    }

    @Test func aLoadThatNeverFillsTimesOutIntoAReconnect() throws {
        var d = try preparingLive()
        let due = try #require(d.lastScheduled(.bufferingTimeout))
        #expect(due.timer == .openingTimeout(d.lastLoad!))
        #expect(due.at == PlayerTime(seconds: Fixture.config().bufferingTimeout))
        try d.send(.bufferProgress(d.lastLoadDeck!, fill: 0.2))
        // Progress does not move the deadline: the opening as a whole is timed.
        #expect(d.lastScheduled(.bufferingTimeout)?.at == due.at)
        try d.send(.timerFired(due.timer, at: due.at))
        guard case .reconnecting(_, 1, _, _?, let cause) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(cause.code == .bufferingTimeout)
    }

    @Test func pauseWhileStillConnectingAbandonsTheConnection() throws {
        var d = try preparingLive()
        try fireStillConnecting(&d)
        let effects = try d.send(.pause)
        #expect(effects.contains(.unload(d.lastLoadDeck!)))
        #expect(d.state.name == .paused)
        // Resume connects again.
        let resumed = try d.send(.resume)
        #expect(resumed.contains { if case .load = $0 { true } else { false } })
    }

    @Test func aFirstConnect404IsAWrongAddressNotRetried() throws {
        var d = try preparingLive()
        try d.send(.loadFailed(d.lastLoad!, PlaybackError(.httpNotFound, httpStatus: 404), at: PlayerTime(seconds: 1)))
        guard case .failed(let error, _, _) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(error.code == .httpNotFound)
        #expect(!d.effects.contains { if case .scheduleTimer(.retry, _) = $0 { true } else { false } })
    }

    @Test func a404AfterTheMountPlayedIsSourceGoneAndRidesThePolicy() throws {
        var d = try Driver.reconnecting()
        try d.send(.timerFired(.retry(attempt: 1), at: d.lastScheduledRetry!.at))
        try d.send(.loadFailed(d.lastLoad!, PlaybackError(.httpNotFound, httpStatus: 404), at: PlayerTime(seconds: 12)))
        guard case .reconnecting(_, 2, _, _?, let cause) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(cause.code == .streamUnavailable)
        #expect(cause.httpStatus == 404)
    }
}
