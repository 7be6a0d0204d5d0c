import Foundation
import Testing

@testable import Library

/// The rules other devices' actions follow here, without a server or a database.
@Suite("Merging other devices' episode actions")
struct EpisodeActionMergeTests {
    static let feed = "https://a.example/feed"

    func play(_ guid: String?, audio: String, at seconds: Double, position: Int, total: Int = 100, podcast: String = feed)
        -> GpodderWire.EpisodeAction
    {
        GpodderWire.EpisodeAction(
            podcast: podcast, episode: audio, guid: guid, action: .play, timestamp: Date(timeIntervalSince1970: seconds), started: 0,
            position: position, total: total)
    }

    @Test func theGUIDWinsOverTheAddressAndTheSameFeedWinsOverAnother() {
        let episodes = [
            EpisodeActionMerge.Local(id: 1, podcastURL: Self.feed, guid: "g1", audioURL: "https://cdn.example/old.mp3"),
            EpisodeActionMerge.Local(id: 2, podcastURL: "https://other.example/feed", guid: "g1", audioURL: "https://x.example/2.mp3"),
            EpisodeActionMerge.Local(id: 3, podcastURL: Self.feed, guid: "g3", audioURL: "https://cdn.example/3.mp3"),
        ]
        let matcher = EpisodeActionMerge.Matcher(episodes)
        #expect(matcher.match(play("g1", audio: "https://new-cdn.example/1.mp3", at: 1, position: 1))?.id == 1)
        #expect(matcher.match(play("g1", audio: "https://x.example/2.mp3", at: 1, position: 1, podcast: "https://third.example"))?.id == 2)
        #expect(matcher.match(play(nil, audio: "https://cdn.example/3.mp3", at: 1, position: 1))?.id == 3)
        #expect(matcher.match(play("unknown", audio: "https://cdn.example/3.mp3", at: 1, position: 1))?.id == 3)
        #expect(matcher.match(play("unknown", audio: "https://nowhere.example/3.mp3", at: 1, position: 1)) == nil)
    }

    @Test func theLatestActionWinsAndOnlyWhenNewerThanTheListenersOwn() {
        let local = [
            EpisodeActionMerge.Local(id: 1, podcastURL: Self.feed, guid: "g1", audioURL: "https://a.example/1.mp3"),
            EpisodeActionMerge.Local(
                id: 2, podcastURL: Self.feed, guid: "g2", audioURL: "https://a.example/2.mp3", position: 50, updatedAt: Date(timeIntervalSince1970: 500)),
        ]
        let outcome = EpisodeActionMerge.merge(
            [
                play("g1", audio: "", at: 300, position: 30), play("g1", audio: "", at: 100, position: 10),
                play("g2", audio: "", at: 400, position: 40), play("zz", audio: "https://b.example/x.mp3", at: 1, position: 1),
            ], into: local)
        #expect(outcome.updates.map(\.episodeID) == [1])
        #expect(outcome.updates.first?.position == 30)
        #expect(outcome.unmatched == 1)
        #expect(outcome.older == 2)
    }

    @Test func aPlayNeverUnfinishesButANewerNewDoes() {
        let played = EpisodeActionMerge.Local(
            id: 1, podcastURL: Self.feed, guid: "g1", audioURL: "https://a.example/1.mp3", position: 100, played: true,
            updatedAt: Date(timeIntervalSince1970: 10))
        let replay = EpisodeActionMerge.merge([play("g1", audio: "", at: 20, position: 40)], into: [played])
        #expect(replay.updates.first?.played == true)
        #expect(replay.updates.first?.position == 40)
        let finished = EpisodeActionMerge.merge([play("g1", audio: "", at: 20, position: 100)], into: [played])
        #expect(finished.updates.first?.played == true)
        let new = GpodderWire.EpisodeAction(
            podcast: Self.feed, episode: "https://a.example/1.mp3", guid: "g1", action: .new, timestamp: Date(timeIntervalSince1970: 20))
        let marked = EpisodeActionMerge.merge([new], into: [played])
        #expect(marked.updates.first?.played == false)
        #expect(marked.updates.first?.position == 0)
        let old = GpodderWire.EpisodeAction(
            podcast: Self.feed, episode: "https://a.example/1.mp3", guid: "g1", action: .new, timestamp: Date(timeIntervalSince1970: 5))
        #expect(EpisodeActionMerge.merge([old], into: [played]).updates.isEmpty)
    }

    @Test func actionsForEpisodesNotHereAreHeldTheLatestPerEpisode() {
        let local = [EpisodeActionMerge.Local(id: 1, podcastURL: Self.feed, guid: "g1", audioURL: "https://a.example/1.mp3")]
        let outcome = EpisodeActionMerge.merge(
            [
                play("g9", audio: "https://a.example/9.mp3", at: 10, position: 5), play("g9", audio: "https://cdn2.example/9.mp3", at: 30, position: 50),
                play("g9", audio: "https://a.example/9.mp3", at: 20, position: 20), play(nil, audio: "https://a.example/8.mp3", at: 5, position: 8),
                play("g9", audio: "https://b.example/9.mp3", at: 40, position: 7, podcast: "https://b.example/feed"),
                GpodderWire.EpisodeAction(
                    podcast: Self.feed, episode: "https://a.example/7.mp3", guid: "g7", action: .download, timestamp: Date(timeIntervalSince1970: 9)),
            ], into: local)
        #expect(outcome.updates.isEmpty)
        #expect(outcome.unmatched == 5)
        // Per feed and guid (another feed's "g9" is another episode), else per address; downloads are not kept.
        #expect(outcome.held.map(\.position) == [8, 50, 7])
        // Held and merged later, by the same rules: the episode is there now.
        let arrived = local + [EpisodeActionMerge.Local(id: 9, podcastURL: Self.feed, guid: "g9", audioURL: "https://cdn3.example/9.mp3")]
        let later = EpisodeActionMerge.merge(outcome.held, into: arrived)
        // A guid the library has once matches from another feed's address too (a feed that
        // moved), so the latest of the two g9 actions wins.
        #expect(later.updates.map(\.episodeID) == [9])
        #expect(later.updates.first?.position == 7)
        #expect(later.held.map(\.episode) == ["https://a.example/8.mp3"], "the episode without a guid still waits")
    }

    @Test func aPlaceWithoutALengthMovesButNeverFinishes() {
        let local = [EpisodeActionMerge.Local(id: 1, podcastURL: Self.feed, guid: "g1", audioURL: "https://a.example/1.mp3")]
        let action = GpodderWire.EpisodeAction(
            podcast: Self.feed, episode: "https://a.example/1.mp3", guid: "g1", action: .play, timestamp: Date(timeIntervalSince1970: 9),
            position: 4000)
        let outcome = EpisodeActionMerge.merge([action], into: local)
        #expect(outcome.updates == [EpisodeActionMerge.Update(episodeID: 1, position: 4000, played: false, duration: nil, at: action.timestamp)])
    }
}
