import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit

/// The player's `TranscriptStore` in the library: a transcript is kept with the episodes whose
/// feed names its address, so `tonearm podcast transcript` and every later play read it without
/// the network.
package final class LibraryTranscriptStore: TranscriptStore {
    private let store: LibraryStore
    private let logger: Logger

    package init(store: LibraryStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    package func transcript(at link: TranscriptLink) -> Transcript? {
        (try? store.keptTranscript(url: link.url)).flatMap { $0 }
    }

    package func keep(_ transcript: Transcript, from link: TranscriptLink) {
        do throws(PlaybackError) {
            try store.keepTranscript(transcript, format: link.format, url: link.url)
        } catch {
            logger.warning("transcript not kept", metadata: LogFields.error(error).mapValues { .string($0) })
        }
    }
}
