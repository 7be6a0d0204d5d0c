import Foundation
import Library
import PlayerCore
import Testing

/// Seasons, numbers, people and funding are kept with the podcast and its episodes, follow a
/// refresh, and order the episode list by season.
@Suite("Credits in the store")
struct PodcastCreditsStoreTests {
    static func episode(_ n: Int, season: Int?, number: Double?, guests: [String] = []) -> FeedEpisode {
        var episode = StoreFeedFixtures.episode(n)
        episode.season = season
        episode.episodeNumber = number
        episode.persons = guests.map { FeedPerson(name: $0, role: "guest") }
        return episode
    }

    @Test func creditsAreKeptAndFollowARefresh() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        var first = Self.episode(1, season: 1, number: 1, guests: ["Bob"])
        first.soundbites = [Soundbite(start: 12.5, duration: 30, title: "The best bit")]
        var feed = StoreFeedFixtures.feed(episodes: [first])
        feed.funding = [FundingLink(url: URL(string: "https://patreon.example/show")!, title: "Patreon")]
        feed.persons = [FeedPerson(name: "Alice")]
        let podcast = try store.addPodcast(feedURL: StoreFeedFixtures.feedURL, feed: feed, validators: FeedValidators())
        #expect(podcast.funding == feed.funding && podcast.persons == feed.persons)
        var episode = try #require(try store.episodes(podcastID: podcast.id).first)
        #expect(episode.season == 1 && episode.episodeNumber == 1 && episode.persons.map(\.name) == ["Bob"])
        #expect(episode.soundbites == first.soundbites)

        // A refresh that renumbers the episode and drops the funding: an update, kept.
        feed.episodes = [Self.episode(1, season: 2, number: 7.5)]
        feed.funding = []
        let result = try store.refreshPodcast(id: podcast.id, feed: feed, validators: FeedValidators())
        #expect(result.updated == 1)
        episode = try #require(try store.episodes(podcastID: podcast.id).first)
        #expect(episode.season == 2 && episode.episodeNumber == 7.5 && episode.persons.isEmpty && episode.soundbites.isEmpty)
        #expect(try store.podcast(matching: "\(podcast.id)").funding.isEmpty)
        // Refreshing with the same feed again changes nothing.
        #expect(try store.refreshPodcast(id: podcast.id, feed: feed, validators: FeedValidators()).updated == 0)
    }

    @Test func episodesSortBySeasonAndNumberWithTheUnnumberedLast() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        // Feed order is newest first: 6 (unnumbered), 5 (S2E1), 4 (S1E10), 3 (S1E2), 2 (E0.5 without season), 1 (S1E2, an older copy).
        let feed = StoreFeedFixtures.feed(episodes: [
            StoreFeedFixtures.episode(6), Self.episode(5, season: 2, number: 1), Self.episode(4, season: 1, number: 10),
            Self.episode(3, season: 1, number: 2), Self.episode(2, season: nil, number: 0.5), Self.episode(1, season: 1, number: 2),
        ])
        let podcast = try store.addPodcast(feedURL: StoreFeedFixtures.feedURL, feed: feed, validators: FeedValidators())
        let episodes = try store.episodes(podcastID: podcast.id)
        #expect(EpisodeOrder.newest.sorted(episodes).map(\.guid) == ["ep-6", "ep-5", "ep-4", "ep-3", "ep-2", "ep-1"])
        #expect(EpisodeOrder.oldest.sorted(episodes).map(\.guid) == ["ep-1", "ep-2", "ep-3", "ep-4", "ep-5", "ep-6"])
        #expect(EpisodeOrder.season.sorted(episodes).map(\.guid) == ["ep-2", "ep-1", "ep-3", "ep-4", "ep-5", "ep-6"])
    }
}
