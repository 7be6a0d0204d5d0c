import Foundation
import GRDB
import PlayerCore
import Testing

@testable import Library

@Suite("Library store: podcasts and episodes")
struct PodcastStoreTests {
    @Test func addingAPodcastKeepsItsFeedAndListsEpisodesNewestFirst() throws {
        let temporary = try TemporaryDirectory()
        let clock = StoreTestClock()
        let store = try LibraryStore.open(directory: temporary.url, now: clock.function)
        // Feed order: 2, undated A, 3, 1, undated B. Newest first: 3, 2, 1, then undated in feed order.
        let feed = StoreFeedFixtures.feed(episodes: [
            StoreFeedFixtures.episode(2), StoreFeedFixtures.episode(10, title: "Undated A", dated: false), StoreFeedFixtures.episode(3),
            StoreFeedFixtures.episode(1), StoreFeedFixtures.episode(11, title: "Undated B", dated: false),
        ])
        let podcast = try store.addPodcast(
            feedURL: StoreFeedFixtures.feedURL, feed: feed, validators: FeedValidators(etag: "\"abc\"", lastModified: "Mon, 02 Jun 2025 10:00:00 GMT"))

        #expect(podcast.title == "The Daily Show")
        #expect(podcast.author == "Someone")
        #expect(podcast.feedURL == StoreFeedFixtures.feedURL)
        #expect(podcast.imageURL == URL(string: "https://example.org/art.jpg"))
        #expect(podcast.validators == FeedValidators(etag: "\"abc\"", lastModified: "Mon, 02 Jun 2025 10:00:00 GMT"))
        #expect(podcast.addedAt == clock.now)
        #expect(podcast.lastCheckedAt == clock.now)
        #expect(podcast.episodeCount == 5)
        #expect(podcast.unplayedCount == 5)
        #expect(try store.podcasts() == [podcast])

        let episodes = try store.episodes(podcastID: podcast.id)
        #expect(episodes.map(\.title) == ["Episode 3", "Episode 2", "Episode 1", "Undated A", "Undated B"])
        let third = episodes[0]
        #expect(third.podcastID == podcast.id)
        #expect(third.podcastTitle == "The Daily Show")
        #expect(third.guid == "ep-3")
        #expect(third.publishedAt == StoreFeedFixtures.episode(3).publishedAt)
        #expect(third.audioURL == URL(string: "https://cdn.example.org/3.mp3"))
        #expect(third.audioLength == 12_345)
        #expect(third.audioType == "audio/mpeg")
        #expect(third.duration == 1_800)
        #expect(third.position == 0)
        #expect(!third.played)
        #expect(try store.episode(id: third.id) == third)
        #expect(third.episode == Episode(id: String(third.id), title: "Episode 3", podcastTitle: "The Daily Show",
                                          audioURL: URL(string: "https://cdn.example.org/3.mp3"), duration: 1_800))
    }

    @Test func theSameFeedTwiceIsAlreadyInLibrary() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        _ = try store.addPodcast(feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(episodes: []), validators: .none)
        let error = playbackError { () throws(PlaybackError) in
            try store.addPodcast(feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(title: "Other", episodes: []), validators: .none)
        }
        #expect(error?.code == .alreadyInLibrary)
        #expect(try store.podcasts().count == 1)
    }

    @Test func feedTextsAreSanitisedAndRepeatedGuidsKeptOnce() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        var feed = StoreFeedFixtures.feed(
            title: "Evil\u{202E}Show\u{1B}[31m\nTwo", episodes: [StoreFeedFixtures.episode(1, title: "First\u{0007}"), StoreFeedFixtures.episode(1, title: "Again")])
        feed.author = "\u{85}\u{200F}"
        let podcast = try store.addPodcast(feedURL: StoreFeedFixtures.feedURL, feed: feed, validators: FeedValidators(etag: "a\r\nSet-Cookie: x"))
        #expect(podcast.title == "EvilShow[31m Two")
        #expect(podcast.author == nil)
        #expect(podcast.etag == "a Set-Cookie: x")
        #expect(try store.episodes(podcastID: podcast.id).map(\.title) == ["First"])
    }

    @Test func refreshUpsertsByGuidAndKeepsTheListenersState() throws {
        let temporary = try TemporaryDirectory()
        let clock = StoreTestClock()
        let store = try LibraryStore.open(directory: temporary.url, now: clock.function)
        let podcast = try store.addPodcast(
            feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(episodes: [3, 2, 1].map { StoreFeedFixtures.episode($0) }),
            validators: FeedValidators(etag: "\"one\""))
        let byGuid = Dictionary(uniqueKeysWithValues: try store.episodes(podcastID: podcast.id).map { ($0.guid, $0.id) })
        let (one, two, three) = (try #require(byGuid["ep-1"]), try #require(byGuid["ep-2"]), try #require(byGuid["ep-3"]))
        try store.savePosition(episodeID: one, position: 120, duration: nil)
        try store.markPlayed(episodeID: two)

        clock.advance(by: 3_600)
        // Episode 1 renamed, 2 unchanged, 3 gone from the feed, 4 new.
        let refreshed = StoreFeedFixtures.feed(title: "The Daily Show (new name)", episodes: [
            StoreFeedFixtures.episode(4), StoreFeedFixtures.episode(2), StoreFeedFixtures.episode(1, title: "Episode 1, corrected"),
        ])
        let result = try store.refreshPodcast(id: podcast.id, feed: refreshed, validators: FeedValidators(etag: "\"two\""))

        #expect(result.added == 1)
        #expect(result.updated == 1)
        #expect(result.podcast.title == "The Daily Show (new name)")
        #expect(result.podcast.etag == "\"two\"")
        #expect(result.podcast.lastCheckedAt == clock.now)
        #expect(result.podcast.addedAt == podcast.addedAt)
        #expect(result.podcast.episodeCount == 4)
        #expect(result.podcast.unplayedCount == 3)
        #expect(try store.episode(id: one).title == "Episode 1, corrected")
        #expect(try store.episode(id: one).position == 120)
        #expect(try store.episode(id: two).played)
        #expect(try store.episode(id: three).title == "Episode 3")
        #expect(try store.episodes(podcastID: podcast.id).map(\.guid) == ["ep-4", "ep-3", "ep-2", "ep-1"])

        // The same feed again changes nothing; one item pushed in front is an addition only.
        #expect(try store.refreshPodcast(id: podcast.id, feed: refreshed, validators: .none).added == 0)
        #expect(try store.refreshPodcast(id: podcast.id, feed: refreshed, validators: .none).updated == 0)
        let pushed = StoreFeedFixtures.feed(title: refreshed.title, episodes: [StoreFeedFixtures.episode(5)] + refreshed.episodes)
        let last = try store.refreshPodcast(id: podcast.id, feed: pushed, validators: .none)
        #expect((last.added, last.updated) == (1, 0))
        #expect(last.podcast.validators == .none)
    }

    @Test func aLargeRefreshIsCountedExactly() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let podcast = try store.addPodcast(feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(episodes: []), validators: .none)
        let episodes = (0..<5_000).map { StoreFeedFixtures.episode($0) }
        let first = try store.refreshPodcast(id: podcast.id, feed: StoreFeedFixtures.feed(episodes: episodes), validators: .none)
        #expect((first.added, first.updated, first.podcast.episodeCount) == (5_000, 0, 5_000))
        var changed = episodes
        for index in stride(from: 0, to: 5_000, by: 100) { changed[index].title += " (edited)" }
        let second = try store.refreshPodcast(id: podcast.id, feed: StoreFeedFixtures.feed(episodes: changed), validators: .none)
        #expect((second.added, second.updated, second.podcast.episodeCount) == (0, 50, 5_000))
    }

    /// Episodes are inserted many to a statement: a feed longer than one statement's worth, and
    /// not a multiple of it, keeps every episode with its own fields, in feed order, each indexed
    /// for search (the index is filled by a trigger, once per row whatever the statement).
    @Test func anAddedFeedOfManyStatementsKeepsEveryEpisodeInOrderAndSearchable() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        var episodes = (0..<1_234).map { StoreFeedFixtures.episode($0, dated: false) }
        episodes[777].title = "Marmalade tasting"
        episodes[1_233].summary = "Notes on quinces"
        let podcast = try store.addPodcast(feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(episodes: episodes), validators: .none)
        #expect(podcast.episodeCount == 1_234)
        let stored = try store.episodes(podcastID: podcast.id)
        #expect(stored.map(\.guid) == episodes.map(\.guid))
        #expect(stored.map(\.title) == episodes.map(\.title))
        #expect(stored.map(\.audioURL) == episodes.map { $0.enclosure?.url })
        #expect(try store.search("marmalade").map(\.episodeID) == [stored[777].id])
        #expect(try store.search("quinces").map(\.episodeID) == [stored[1_233].id])
        let refreshed = try store.refreshPodcast(
            id: podcast.id, feed: StoreFeedFixtures.feed(episodes: episodes + (1_234..<1_900).map { StoreFeedFixtures.episode($0, dated: false) }),
            validators: .none)
        #expect((refreshed.added, refreshed.updated, refreshed.podcast.episodeCount) == (666, 0, 1_900))
        #expect(try store.episodes(podcastID: podcast.id).map(\.guid) == (0..<1_900).map { "ep-\($0)" })
    }

    @Test func aNotModifiedCheckChangesOnlyTheCheckTimeAndValidators() throws {
        let temporary = try TemporaryDirectory()
        let clock = StoreTestClock()
        let store = try LibraryStore.open(directory: temporary.url, now: clock.function)
        let podcast = try store.addPodcast(
            feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(episodes: [StoreFeedFixtures.episode(1)]),
            validators: FeedValidators(etag: "\"one\"", lastModified: "Mon, 02 Jun 2025 10:00:00 GMT"))
        clock.advance(by: 600)
        try store.markChecked(podcastID: podcast.id, validators: FeedValidators(etag: "\"two\"", lastModified: nil))
        let after = try store.podcast(matching: String(podcast.id))
        var expected = podcast
        expected.lastCheckedAt = clock.now
        expected.etag = "\"two\""
        #expect(after == expected)
        #expect(playbackError { () throws(PlaybackError) in try store.markChecked(podcastID: 999, validators: .none) }?.code == .notInLibrary)
        #expect(playbackError { () throws(PlaybackError) in
            try store.refreshPodcast(id: 999, feed: StoreFeedFixtures.feed(episodes: []), validators: .none)
        }?.code == .notInLibrary)
    }

    @Test func removingAPodcastCascadesToEpisodesAndPositions() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let kept = try store.addPodcast(
            feedURL: URL(string: "https://kept.example/feed")!, feed: StoreFeedFixtures.feed(title: "Kept", episodes: [StoreFeedFixtures.episode(1)]),
            validators: .none)
        let removed = try store.addPodcast(
            feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(episodes: [1, 2].map { StoreFeedFixtures.episode($0) }), validators: .none)
        for episode in try store.episodes(podcastID: removed.id) + store.episodes(podcastID: kept.id) {
            try store.savePosition(episodeID: episode.id, position: 10, duration: nil)
        }
        try store.removePodcast(id: removed.id)
        #expect(try store.podcasts().map(\.id) == [kept.id])
        let (episodes, positions) = try store.pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM episode") ?? -1, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM playbackPosition") ?? -1)
        }
        #expect((episodes, positions) == (1, 1))
        #expect(playbackError { () throws(PlaybackError) in try store.episodes(podcastID: removed.id) }?.code == .notInLibrary)
        #expect(playbackError { () throws(PlaybackError) in try store.removePodcast(id: removed.id) }?.code == .notInLibrary)
    }

    @Test func podcastsAreFoundByIdTitleOrUniquePrefix() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        func add(_ title: String) throws -> PodcastRecord {
            try store.addPodcast(
                feedURL: URL(string: "https://example.org/\(UUID().uuidString)")!, feed: StoreFeedFixtures.feed(title: title, episodes: []),
                validators: .none)
        }
        let news = try add("News")
        let newsDaily = try add("News Daily")
        let radiolab = try add("Radiolab")
        let ukrainian = try add("Ранкова Кава")

        #expect(try store.podcasts().map(\.title) == ["News", "News Daily", "Radiolab", "Ранкова Кава"])
        #expect(try store.podcast(matching: String(radiolab.id)) == radiolab)
        #expect(try store.podcast(matching: "news") == news)  // exact title wins over a prefix of "News Daily"
        #expect(try store.podcast(matching: "NEWS daily") == newsDaily)
        #expect(try store.podcast(matching: "radio") == radiolab)
        #expect(try store.podcast(matching: "ранкова") == ukrainian)
        #expect(playbackError { () throws(PlaybackError) in try store.podcast(matching: "new") }?.code == .notInLibrary)
        #expect(playbackError { () throws(PlaybackError) in try store.podcast(matching: "Serial") }?.code == .notInLibrary)
        #expect(playbackError { () throws(PlaybackError) in try store.podcast(matching: "  ") }?.code == .notInLibrary)
        #expect(playbackError { () throws(PlaybackError) in try store.podcast(matching: "987") }?.code == .notInLibrary)
    }

    @Test func aMissingEpisodeIsNotInLibrary() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        #expect(playbackError { () throws(PlaybackError) in try store.episode(id: 1) }?.code == .notInLibrary)
        #expect(playbackError { () throws(PlaybackError) in try store.savePosition(episodeID: 1, position: 1, duration: nil) }?.code == .notInLibrary)
        #expect(playbackError { () throws(PlaybackError) in try store.markPlayed(episodeID: 1) }?.code == .notInLibrary)
        #expect(playbackError { () throws(PlaybackError) in try store.resumePosition(episodeID: 1) }?.code == .notInLibrary)
    }
}

@Suite("Library store: playback positions")
struct PositionStoreTests {
    private func storeWithEpisode(_ temporary: TemporaryDirectory) throws -> (LibraryStore, Int64) {
        let store = try LibraryStore.open(directory: temporary.url)
        let podcast = try store.addPodcast(feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(episodes: [StoreFeedFixtures.episode(1)]), validators: .none)
        return (store, try #require(try store.episodes(podcastID: podcast.id).first?.id))
    }

    @Test func resumeIsTheSavedPositionUntilPlayed() throws {
        let temporary = try TemporaryDirectory()
        let (store, id) = try storeWithEpisode(temporary)
        #expect(try store.resumePosition(episodeID: id) == 0)
        try store.savePosition(episodeID: id, position: 95.5, duration: nil)
        #expect(try store.resumePosition(episodeID: id) == 95.5)
        try store.savePosition(episodeID: id, position: 1_799, duration: nil)
        try store.markPlayed(episodeID: id)
        #expect(try store.resumePosition(episodeID: id) == 0)
        #expect(try store.episode(id: id).played)
        #expect(try store.episode(id: id).position == 1_799)
        #expect(try store.podcasts().first?.unplayedCount == 0)
        try store.markPlayed(episodeID: id, false)
        #expect(try store.resumePosition(episodeID: id) == 1_799)
        #expect(try store.podcasts().first?.unplayedCount == 1)
    }

    @Test func badPositionsCountAsZeroAndMeasuredDurationWins() throws {
        let temporary = try TemporaryDirectory()
        let (store, id) = try storeWithEpisode(temporary)
        try store.savePosition(episodeID: id, position: -4, duration: 1_812.5)
        #expect(try store.resumePosition(episodeID: id) == 0)
        #expect(try store.episode(id: id).duration == 1_812.5)
        try store.savePosition(episodeID: id, position: .nan, duration: .infinity)
        #expect(try store.resumePosition(episodeID: id) == 0)
        #expect(try store.episode(id: id).duration == 1_812.5)
        try store.markPlayed(episodeID: id)
        try store.savePosition(episodeID: id, position: 30, duration: nil)
        #expect(try store.episode(id: id).played)  // saving does not clear played
    }
}
