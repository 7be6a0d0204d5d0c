import Foundation
import Library
import PlayerCore
import PlayerKit
import Services
import Streaming

/// Episodes' transcripts: the one kept in the library, else fetched from the address the feed
/// names (`TranscriptService`'s rules) and kept, so it reads again without the network and its
/// words are found by search. Used when an episode plays, when its transcript is printed, and
/// when it is downloaded.
package struct EpisodeTranscripts: Sendable {
    let store: LibraryStore
    let network: NetworkClient
    let analytics: ErrorAnalytics?

    /// The transcript of `episodeID`. A failed fetch is recorded in the analytics.
    ///
    /// The address may be private (loopback, the LAN) only on the feed's own host: a listener who
    /// subscribed to a feed on their network trusts that server, while a public feed never gets
    /// Tonearm to fetch from inside the listener's network.
    ///
    /// - Throws: `noTranscript` when the feed names none Tonearm reads; the fetch's errors.
    package func transcript(episodeID: Int64) async throws(PlaybackError) -> Transcript {
        let episode = try store.episode(id: episodeID)
        guard let link = episode.transcript else {
            throw PlaybackError(.noTranscript, underlying: "the feed names no transcript")
        }
        if let kept = try store.keptTranscript(episodeID: episodeID, url: link.url) { return kept }
        let feedHost = try store.podcasts().first { $0.id == episode.podcastID }?.feedURL.host?.lowercased()
        let service = TranscriptService(
            network: network,
            configuration: TranscriptService.Configuration(allowPrivateAddresses: feedHost != nil && link.url.host?.lowercased() == feedHost))
        do throws(PlaybackError) {
            let transcript = try await service.load(link.url, format: link.format)
            try store.keepTranscript(transcript, format: link.format, episodeID: episodeID, url: link.url)
            return transcript
        } catch {
            if let analytics { await analytics.record(error, operation: "loadTranscript") }
            throw error
        }
    }
}
