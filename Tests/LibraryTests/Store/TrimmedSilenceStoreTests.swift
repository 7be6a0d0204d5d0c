import Foundation
import Library
import PlayerCore
import Testing

/// The time silence trimming saved, kept per episode and summed per podcast.
@Suite("Trimmed silence in the store")
struct TrimmedSilenceStoreTests {
    @Test func savingsAddUpPerEpisodeAndPerPodcastAndGoWithTheirPodcast() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let podcast = try store.addPodcast(
            feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(episodes: [StoreFeedFixtures.episode(1), StoreFeedFixtures.episode(2)]),
            validators: .none)
        let episodes = try store.episodes(podcastID: podcast.id)
        try store.addTrimmedSilence(episodeID: episodes[0].id, seconds: 2.5)
        try store.addTrimmedSilence(episodeID: episodes[0].id, seconds: 1.5)
        try store.addTrimmedSilence(episodeID: episodes[1].id, seconds: 3)
        try store.addTrimmedSilence(episodeID: episodes[1].id, seconds: .nan)
        #expect(try store.trimmedSilence(episodeID: episodes[0].id) == 4)
        let byPodcast = try store.trimmedSilenceByPodcast()
        #expect(byPodcast.count == 1 && byPodcast.first?.seconds == 7)
        let missing = playbackError { () throws(PlaybackError) in try store.addTrimmedSilence(episodeID: 9_999, seconds: 1) }
        #expect(missing?.code == .notInLibrary)
        try store.removePodcast(id: podcast.id)
        #expect(try store.trimmedSilenceByPodcast().isEmpty)
    }
}
