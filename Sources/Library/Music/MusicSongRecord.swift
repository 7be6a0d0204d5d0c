import Foundation
import PlayerCore

/// What the index knows of one file: where it is, when it was last seen changed, and its tags or
/// why they could not be read.
package struct MusicSongRecord: Sendable, Hashable, Codable {
    package var id: Int64
    /// Relative to the music directory, `/`-separated.
    package var path: String
    package var stamp: MusicFileStamp
    /// When the file first entered the index (MPD's `Added`).
    package var added: Date
    package var tags: SongTags
    /// Set when the file could not be read: its typed error's code.
    package var failure: PlaybackError.Code?

    package var directory: String { MusicFiles.directory(of: path) }
    /// The file's own name, the title when it has none.
    package var fileName: String { String(path.split(separator: "/").last ?? Substring(path)) }
    /// The title a listener sees: the tag, else the file name without its extension.
    package var displayTitle: String { tags[.title] ?? (fileName as NSString).deletingPathExtension }
}

/// What a later update compares to tell whether a file changed: its modification time and size.
package struct MusicFileStamp: Sendable, Hashable, Codable {
    /// Seconds since 1970, as `stat` gives them (with the nanoseconds).
    package var modified: Double
    package var size: Int64

    package init(modified: Double, size: Int64) {
        self.modified = modified
        self.size = size
    }
}

/// One file's outcome of a read, as an update writes it.
package struct MusicFileReading: Sendable {
    package var path: String
    package var stamp: MusicFileStamp
    package var result: Result<SongTags, PlaybackError>

    package init(path: String, stamp: MusicFileStamp, result: Result<SongTags, PlaybackError>) {
        self.path = path
        self.stamp = stamp
        self.result = result
    }
}

/// Totals for `stats` and the library screen.
package struct MusicTotals: Sendable, Hashable {
    package var songs = 0
    package var failures = 0
    package var artists = 0
    package var albums = 0
    /// Seconds of every song whose length is known.
    package var playtime: Double = 0
    /// When the last update finished, nil before the first.
    package var lastUpdate: Date?

    package init() {}
}
