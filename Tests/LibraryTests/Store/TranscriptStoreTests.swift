import Foundation
import Library
import PlayerCore
import Testing

/// A fetched transcript is kept with its episode and its address: read back as it was, not for
/// another address, gone with the episode's podcast.
@Suite("Transcripts in the store")
struct TranscriptStoreTests {
    @Test func aTranscriptIsKeptWithItsEpisodeAndAddress() throws {
        let temporary = try TemporaryDirectory()
        var store = try LibraryStore.open(directory: temporary.url)
        var episode = StoreFeedFixtures.episode(1)
        let link = TranscriptLink(url: URL(string: "https://e.org/1.vtt")!, format: .webVTT)
        episode.transcript = link
        let podcast = try store.addPodcast(
            feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(episodes: [episode]), validators: FeedValidators())
        let record = try #require(try store.episodes(podcastID: podcast.id).first)
        #expect(record.transcript == link)
        #expect(try store.keptTranscript(episodeID: record.id, url: link.url) == nil)

        let transcript = Transcript(cues: [TranscriptCue(start: 1, end: 2, text: "Привет", speaker: "Аня")!])
        try store.keepTranscript(transcript, format: .webVTT, episodeID: record.id, url: link.url)
        store = try LibraryStore.open(directory: temporary.url)
        #expect(try store.keptTranscript(episodeID: record.id, url: link.url) == transcript)
        #expect(try store.keptTranscript(episodeID: record.id, url: URL(string: "https://e.org/other.vtt")!) == nil)

        try store.removePodcast(id: podcast.id)
        #expect(try store.keptTranscript(episodeID: record.id, url: link.url) == nil)
    }
}
