import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit

/// The player's `LoudnessStore` in the library: a file is keyed by its path, size and
/// modification time (an edited file is measured again), an episode by its enclosure URL.
package final class LibraryLoudnessStore: LoudnessStore {
    private let store: LibraryStore
    private let logger: Logger

    package init(store: LibraryStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    package func loudness(of track: Track) -> Loudness? {
        guard let key = Self.key(for: track) else { return nil }
        return (try? store.loudness(sourceKey: key)).flatMap { $0 }
    }

    package func keep(_ loudness: Loudness, of track: Track) {
        guard let key = Self.key(for: track) else { return }
        do throws(PlaybackError) {
            try store.keepLoudness(loudness, sourceKey: key)
        } catch {
            logger.warning("loudness not kept", metadata: LogFields.error(error).mapValues { .string($0) })
        }
    }

    /// Nil for a live stream (its loudness changes all the time) and a file that cannot be read.
    static func key(for track: Track) -> String? {
        guard !track.isLive else { return nil }
        guard track.url.isFileURL else { return track.url.absoluteString }
        let path = track.url.standardizedFileURL.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? NSNumber, let modified = attributes[.modificationDate] as? Date
        else { return nil }
        return "file:\(path):\(size.int64Value):\(Int64(modified.timeIntervalSince1970 * 1000))"
    }
}
