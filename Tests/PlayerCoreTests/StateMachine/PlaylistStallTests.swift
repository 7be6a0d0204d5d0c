import Foundation
import PlayerCore
import Testing

/// A live HLS playlist that stops growing is a stall the machine decides on: its source only counts
/// the loads in a row that brought no new segment (`playlistUnchanged`), and at the configured count
/// the machine answers as for a drop with the `stalled` cause.
@Suite("Playlists that stop growing")
struct PlaylistStallTests {
    static let limit = ResilienceDefaults.unchangedPlaylistLoads

    @Test func whilePlayingTheStreamIsAskedForAgainInTheBackground_atTheLimitOnly() throws {
        var d = try Driver.live()
        for loads in 1..<Self.limit {
            #expect(try d.send(.playlistUnchanged(.a, loads: loads, at: PlayerTime(seconds: Double(10 + loads)))).isEmpty, "\(loads) loads")
        }
        let effects = try d.send(.playlistUnchanged(.a, loads: Self.limit, at: PlayerTime(seconds: 20)))
        #expect(effects.withoutTimers == [.reopenConnection(.a), .reconnectingInBackground(true)])
        #expect(d.state == .playing(track: Fixture.live()), "the buffered audio plays on")
        #expect(d.machine.backgroundReconnectCause?.code == .stalled)
        // Loads after the limit in the same run decide nothing more.
        #expect(try d.send(.playlistUnchanged(.a, loads: Self.limit + 1, at: PlayerTime(seconds: 21))).withoutTimers.isEmpty)
    }

    @Test func aNewSegmentEndsTheBackgroundReconnect() throws {
        var d = try Driver.live()
        try d.send(.playlistUnchanged(.a, loads: Self.limit, at: PlayerTime(seconds: 20)))
        let effects = try d.send(.receiving(.a, at: PlayerTime(seconds: 21)))
        guard case .recovered(let cause, .automaticRetry)? = effects.last else {
            Issue.record("got \(effects)")
            return
        }
        #expect(cause.code == .stalled)
        #expect(effects.first == .reconnectingInBackground(false))
    }

    @Test func aCountThatSkipsTheLimitDecidesOnce() throws {
        var d = try Driver.live()
        try d.send(.playlistUnchanged(.a, loads: 2, at: PlayerTime(seconds: 12)))
        // A shell that folds reports may hand over 7 after 2.
        #expect(try d.send(.playlistUnchanged(.a, loads: 7, at: PlayerTime(seconds: 17))).withoutTimers == [
            .reopenConnection(.a), .reconnectingInBackground(true),
        ])
    }

    @Test func aReopenedSourceThatStaysUnchangedIsAnotherFailedAttempt() throws {
        var d = try Driver.live()
        try d.send(.playlistUnchanged(.a, loads: Self.limit, at: PlayerTime(seconds: 20)))
        // The reopened source counts from 1 again; at the limit it is a reopen that failed.
        for loads in 1..<Self.limit { try d.send(.playlistUnchanged(.a, loads: loads, at: PlayerTime(seconds: Double(20 + loads)))) }
        let effects = try d.send(.playlistUnchanged(.a, loads: Self.limit, at: PlayerTime(seconds: 30)))
        guard case .scheduleTimer(.backgroundReconnect(attempt: 2), _)? = effects.first else {
            Issue.record("got \(effects)")
            return
        }
        #expect(d.state.name == .playing)
    }

    @Test func bytesBetweenUnchangedLoadsStartTheCountAgain() throws {
        var d = try Driver.live()
        for loads in 1..<Self.limit { try d.send(.playlistUnchanged(.a, loads: loads, at: PlayerTime(seconds: Double(10 + loads)))) }
        try d.send(.receiving(.a, at: PlayerTime(seconds: 15)))
        #expect(try d.send(.playlistUnchanged(.a, loads: 1, at: PlayerTime(seconds: 16))).isEmpty)
        #expect(!d.machine.isReconnectingInBackground)
    }

    @Test func whileOpeningTheConnectionIsGivenUp() throws {
        var d = Driver(Fixture.config())
        try d.send(.play(Fixture.request(Fixture.live())), at: 0)
        let effects = try d.send(.playlistUnchanged(.a, loads: Self.limit, at: PlayerTime(seconds: 5)))
        #expect(effects.contains { if case .abandonConnection(.a, let cause) = $0 { cause.code == .stalled } else { false } }, "\(effects)")
    }

    @Test func theLimitIsTheConfigurations() throws {
        var configuration = Fixture.config()
        configuration.unchangedPlaylistLoads = 2
        var d = Driver(configuration)
        try d.send(.play(Fixture.request(Fixture.live())), at: 0)
        try d.send(.loaded(d.lastLoad!, duration: nil))
        #expect(try d.send(.playlistUnchanged(.a, loads: 1, at: PlayerTime(seconds: 1))).isEmpty)
        #expect(try d.send(.playlistUnchanged(.a, loads: 2, at: PlayerTime(seconds: 2))).withoutTimers.contains(.reopenConnection(.a)))
    }
}
