import Foundation
import Logging
import Media
import PlayerCore

/// The music library's use cases, the same for every front end (`tonearm music`, the library
/// screen, MPD's `update`): the index is brought up to date with FFmpeg's tag reader.
extension LibraryContext {
    /// An indexer of `directory` into this library, reading tags with FFmpeg.
    package func musicIndexer(directory: URL, logger: Logger) -> MusicIndexer {
        MusicIndexer(directory: directory, store: store, read: { url throws(PlaybackError) in try TagReader.read(url) }, logger: logger)
    }
}
