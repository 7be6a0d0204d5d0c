import Foundation
import PlayerCore
import PlayerKit

/// The listener's own files (OPML, playlists, exports), read and written with typed errors.
package enum UserFile {
    /// The file's bytes; a file larger than `maxBytes` is `documentTooLarge` before it is read.
    package static func read(_ path: String, maxBytes: Int) throws(PlaybackError) -> Data {
        let url = URL(fileURLWithPath: path)
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            if let size = attributes[.size] as? NSNumber, size.intValue > maxBytes {
                throw PlaybackError(.documentTooLarge, underlying: "\(size) bytes")
            }
            return try Data(contentsOf: url)
        } catch {
            throw PlaybackError.from(error)
        }
    }

    /// Writes `data` to `path` at once (a reader never sees half a file).
    package static func write(_ data: Data, to path: String) throws(PlaybackError) {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw PlaybackError.from(error)
        }
    }
}
