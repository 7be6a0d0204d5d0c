import Foundation
import PlayerCore
import Testing

/// Learned retries in the machine: an item marked `triesOnce` (a station that has not answered for
/// days) fails at once, recoverable, when its first connection fails; the same item without the
/// mark reconnects; once it has played, a drop reconnects as for any item.
@Suite("Items tried once")
struct TriesOnceTests {
    func starting(triesOnce: Bool) throws -> Driver {
        var d = Driver(Fixture.config())
        try d.send(.play(PlayRequest(items: [QueueItem(track: Fixture.live(), triesOnce: triesOnce)])!))
        #expect(d.state.name == .preparing)
        return d
    }

    @Test func aFirstConnectionThatFailsEndsAtOnce() throws {
        var d = try starting(triesOnce: true)
        try d.send(.loadFailed(d.lastLoad!, PlaybackError(.connectionFailed), at: PlayerTime(seconds: 1)))
        guard case .failed(let error, let recoverable, _) = d.state else {
            Issue.record("expected failed, got \(d.state)")
            return
        }
        #expect(error.code == .connectionFailed && recoverable, "the listener can still retry")
        #expect(!d.names.contains(.reconnecting) && d.lastScheduledRetry == nil, "no backoff was spent")
    }

    @Test func withoutTheMarkTheSameFailureReconnects() throws {
        var d = try starting(triesOnce: false)
        try d.send(.loadFailed(d.lastLoad!, PlaybackError(.connectionFailed), at: PlayerTime(seconds: 1)))
        #expect(d.state.name == .reconnecting)
    }

    @Test func aFinalErrorIsFinalEitherWay() throws {
        var d = try starting(triesOnce: true)
        try d.send(.loadFailed(d.lastLoad!, PlaybackError(.unsupportedFormat), at: PlayerTime(seconds: 1)))
        guard case .failed(_, let recoverable, _) = d.state else {
            Issue.record("expected failed, got \(d.state)")
            return
        }
        #expect(!recoverable)
    }

    @Test func onceHeardADropReconnectsAsUsual() throws {
        var d = try starting(triesOnce: true)
        try d.send(.loaded(d.lastLoad!, duration: nil), at: 1)
        #expect(d.state.name == .playing)
        try d.send(.errorOccurred(.a, PlaybackError(.connectionLost), at: PlayerTime(seconds: 10)), at: 10)
        #expect(d.state.name == .reconnecting)
        let retry = try #require(d.lastScheduledRetry)
        let firstLoad = d.lastLoad
        try d.send(.timerFired(.retry(attempt: retry.attempt), at: retry.at))
        #expect(d.lastLoad != firstLoad, "the retry loads the station again")
        try d.send(.loadFailed(d.lastLoad!, PlaybackError(.connectionFailed), at: retry.at))
        #expect(d.state.name == .reconnecting, "a reconnect's failed load is part of the usual backoff")
        #expect(d.lastScheduledRetry?.attempt == 2)
    }

    @Test func theMarkSurvivesEncodingAndOldItemsHaveNone() throws {
        let item = QueueItem(track: Fixture.live(), triesOnce: true)
        let decoded = try JSONDecoder().decode(QueueItem.self, from: JSONEncoder().encode(item))
        #expect(decoded.triesOnce)
        let old = #"{"track":\#(String(decoding: try JSONEncoder().encode(Fixture.live()), as: UTF8.self)),"startPosition":0,"isVoice":false}"#
        #expect(try JSONDecoder().decode(QueueItem.self, from: Data(old.utf8)).triesOnce == false)
    }
}
