import Foundation
import PlayerCore
import Testing

/// A queue entry that was partly played starts where the listener stopped when the player reaches
/// it, whether the hand-over is a gap, a skip or a prepared crossfade; a live stream always starts live.
@Suite("Queue entries start where they were left")
struct QueueStartPositionTests {
    static func loads(_ effects: [PlayerEffect]) -> [(track: String, from: TimeInterval)] {
        effects.compactMap { if case .load(_, _, let track, let from) = $0 { (track.id, from) } else { nil } }
    }

    @Test func theFirstEntryStartsAtItsOwnPlaceWhenTheRequestNamesNone() throws {
        var d = Driver(Fixture.config(crossfade: 0))
        let request = try #require(PlayRequest(items: [QueueItem(track: Fixture.episode("a"), startPosition: 42)]))
        let effects = try d.send(.play(request))
        #expect(Self.loads(effects).map(\.from) == [42])
        #expect(d.machine.currentPosition == 42)
    }

    @Test func aGapHandOverStartsTheNextEntryAtItsPlace() throws {
        // Unknown lengths: no crossfade can be planned, so the next one loads when this one ends.
        var d = Driver(Fixture.config(crossfade: 0, fadeOutAtEnd: false))
        let items = [QueueItem(track: Fixture.episode("a", duration: nil)), QueueItem(track: Fixture.episode("b", duration: nil), startPosition: 600)]
        try d.send(.play(try #require(PlayRequest(items: items))))
        try d.send(.loaded(d.lastLoad!, duration: nil))
        let effects = try d.send(.trackEnded(.a, at: .zero))
        #expect(Self.loads(effects).map(\.track) == ["episode:b"])
        #expect(Self.loads(effects).map(\.from) == [600])
        #expect(d.machine.currentPosition == 600)
    }

    @Test func aSkipPreparesTheNextEntryAtItsPlace() throws {
        var d = Driver()
        let items = [QueueItem(track: Fixture.episode("a")), QueueItem(track: Fixture.episode("b"), startPosition: 125)]
        try d.send(.play(try #require(PlayRequest(items: items))))
        try d.send(.loaded(d.lastLoad!, duration: 3600))
        let effects = try d.send(.skip)
        #expect(Self.loads(effects).map(\.from) == [125])
        // The current track ends before the prepared one crossfades in: it plays from its place.
        try d.send(.loaded(d.lastLoad!, duration: 3600))
        try d.send(.trackEnded(.a, at: .zero))
        #expect(d.state.name == .playing && d.machine.currentPosition == 125)
    }

    @Test func aLiveStreamInTheQueueStartsLive() throws {
        var d = Driver()
        let items = [QueueItem(track: Fixture.episode("a")), QueueItem(track: Fixture.live(), startPosition: 99)]
        try d.send(.play(try #require(PlayRequest(items: items))))
        try d.send(.loaded(d.lastLoad!, duration: 3600))
        let effects = try d.send(.skip)
        #expect(Self.loads(effects).map(\.from) == [0])
    }

    @Test func anItemWrittenBeforeStartPositionsDecodesAtZero() throws {
        let written = try JSONEncoder().encode(QueueItem(track: Fixture.episode("x"), startPosition: 30))
        var object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect(object["startPosition"] as? Double == 30)
        object["startPosition"] = nil
        let item = try JSONDecoder().decode(QueueItem.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(item.startPosition == 0 && item.track.id == "episode:x")
    }

    /// A planned crossfade finishes the outgoing track; a skip's crossfade does not (an episode
    /// skipped is not played).
    @Test func aSkippedTrackIsNotReportedFinished() throws {
        var skipped = try Driver.crossfading(at: 0.5)
        #expect(try skipped.send(.crossfadeCompleted) == [.unload(.a)])
        #expect(skipped.state == .playing(track: Fixture.stage2))
    }
}
