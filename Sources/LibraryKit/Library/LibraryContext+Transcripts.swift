import Foundation
import Library
import PlayerCore
import PlayerKit

extension LibraryContext {
    /// The transcript of `episodeID`: the one kept, else fetched from the address its feed names
    /// and kept (`EpisodeTranscripts`). A failure is recorded in the analytics.
    ///
    /// - Throws: `noTranscript` when the feed names none Tonearm reads; the fetch's errors.
    package func transcript(episodeID: Int64) async throws(PlaybackError) -> Transcript {
        try await EpisodeTranscripts(store: store, network: network, analytics: analytics).transcript(episodeID: episodeID)
    }
}
