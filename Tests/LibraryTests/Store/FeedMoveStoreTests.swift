import Foundation
import GRDB
import PlayerCore
import Testing

@testable import Library

/// A subscription that follows its feed to a new address, and a podcast's `podcast:guid`.
@Suite("Library store: moved feeds and podcast identity")
struct FeedMoveStoreTests {
    static let newURL = URL(string: "https://new.example.org/daily.xml")!

    static func subscribed(_ store: LibraryStore, url: URL = StoreFeedFixtures.feedURL, guid: String? = nil) throws -> PodcastRecord {
        var feed = StoreFeedFixtures.feed(episodes: [StoreFeedFixtures.episode(1)])
        feed.podcastGUID = guid
        return try store.addPodcast(feedURL: url, feed: feed, validators: FeedValidators(etag: "\"e1\""))
    }

    @Test func aMovedFeedKeepsItsEpisodesPositionsAndValidators() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let podcast = try Self.subscribed(store)
        let episode = try #require(try store.episodes(podcastID: podcast.id).first)
        try store.savePosition(episodeID: episode.id, position: 30, duration: 1_800)

        guard case .moved(let moved) = try store.moveFeed(podcastID: podcast.id, to: Self.newURL) else {
            Issue.record("expected the feed to move")
            return
        }
        #expect(moved.feedURL == Self.newURL)
        #expect(try store.podcasts().map(\.feedURL) == [Self.newURL])
        #expect(moved.etag == "\"e1\"")
        #expect(try store.episodes(podcastID: podcast.id).map(\.id) == [episode.id])
        #expect(try store.resumePosition(episodeID: episode.id) == 30)
        #expect(try store.moveFeed(podcastID: podcast.id, to: Self.newURL) == .unchanged)
    }

    @Test func anAddressAnotherSubscriptionHasIsNotTaken() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let first = try Self.subscribed(store)
        _ = try Self.subscribed(store, url: Self.newURL)
        // The UNIQUE feed URL would refuse it: the move is declined, nothing thrown, nothing changed.
        #expect(try store.moveFeed(podcastID: first.id, to: Self.newURL) == .addressInUse)
        #expect(Set(try store.podcasts().map(\.feedURL)) == [StoreFeedFixtures.feedURL, Self.newURL])
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://example.org/feed.xml", "https:///nohost"])
    func anAddressThatIsNotHTTPIsRefused(address: String) throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let podcast = try Self.subscribed(store)
        let url = try #require(URL(string: address))
        #expect(try store.moveFeed(podcastID: podcast.id, to: url) == .refused)
        #expect(try store.podcasts().map(\.feedURL) == [StoreFeedFixtures.feedURL])
    }

    @Test func movingAPodcastThatIsGoneIsNotInLibrary() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        #expect(playbackError { () throws(PlaybackError) in try store.moveFeed(podcastID: 42, to: Self.newURL) }?.code == .notInLibrary)
    }

    @Test func thePodcastGUIDIsKeptAndASecondSubscriptionWithItRefused() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let podcast = try Self.subscribed(store, guid: "917393e3-1b1e-5cef-ace4-edaa54e1f810")
        #expect(try store.podcastGUID(podcastID: podcast.id) == "917393e3-1b1e-5cef-ace4-edaa54e1f810")
        let error = playbackError { () throws(PlaybackError) in
            try store.addPodcast(
                feedURL: Self.newURL, feed: PodcastFeed(title: "Again", podcastGUID: "917393e3-1b1e-5cef-ace4-edaa54e1f810"),
                validators: FeedValidators())
        }
        #expect(error?.code == .alreadyInLibrary)
        #expect(try store.podcasts().count == 1)
        // Feeds without a guid are never taken for one another.
        _ = try Self.subscribed(store, url: Self.newURL)
        _ = try Self.subscribed(store, url: URL(string: "https://third.example.org/feed")!)
        #expect(try store.podcasts().count == 3)
    }

    @Test func aRefreshRecordsAGUIDTheFeedStartsNamingAndKeepsItWhenDropped() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let podcast = try Self.subscribed(store)
        #expect(try store.podcastGUID(podcastID: podcast.id) == nil)
        var feed = StoreFeedFixtures.feed(episodes: [StoreFeedFixtures.episode(1)])
        feed.podcastGUID = "abc"
        _ = try store.refreshPodcast(id: podcast.id, feed: feed, validators: FeedValidators())
        #expect(try store.podcastGUID(podcastID: podcast.id) == "abc")
        feed.podcastGUID = nil
        _ = try store.refreshPodcast(id: podcast.id, feed: feed, validators: FeedValidators())
        #expect(try store.podcastGUID(podcastID: podcast.id) == "abc")
    }
}
