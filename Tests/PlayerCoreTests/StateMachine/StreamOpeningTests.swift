import Foundation
import PlayerCore
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

    @Test func stillConnectingIsAStateThenFillTakesOver() throws {
        var d = try preparingLive()
        try d.send(.stillConnecting(d.lastLoadDeck!))
        #expect(d.state == .buffering(track: Fixture.live(), progress: 0, reason: .connecting))
        #expect(d.state.statusText(in: .english) == "Still connecting…")
        #expect(d.state.statusText(in: .russian) == "Всё ещё подключаемся…")
        try d.send(.bufferProgress(d.lastLoadDeck!, fill: 0.4))
        #expect(d.state == .buffering(track: Fixture.live(), progress: 0.4, reason: .initial))
        try d.send(.loaded(d.lastLoad!, duration: nil))
        #expect(d.state == .playing(track: Fixture.live()))
    }

    @Test func stillConnectingForAnotherDeckOrAfterPlayingChangesNothing() throws {
        var d = try preparingLive()
        try d.send(.stillConnecting(d.lastLoadDeck!.opposite))
        #expect(d.state.name == .preparing)
        try d.send(.loaded(d.lastLoad!, duration: nil))
        try d.send(.stillConnecting(.a))
        #expect(d.state.name == .playing)
    }

    @Test func pauseWhileStillConnectingAbandonsTheConnection() throws {
        var d = try preparingLive()
        try d.send(.stillConnecting(d.lastLoadDeck!))
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
        #expect(!d.effects.contains { if case .scheduleRetry = $0 { true } else { false } })
    }

    @Test func a404AfterTheMountPlayedIsSourceGoneAndRidesThePolicy() throws {
        var d = try Driver.reconnecting()
        try d.send(.retryDue(attempt: 1, at: d.lastScheduledRetry!.at))
        try d.send(.loadFailed(d.lastLoad!, PlaybackError(.httpNotFound, httpStatus: 404), at: PlayerTime(seconds: 12)))
        guard case .reconnecting(_, 2, _, _?, let cause) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(cause.code == .streamUnavailable)
        #expect(cause.httpStatus == 404)
    }
}
