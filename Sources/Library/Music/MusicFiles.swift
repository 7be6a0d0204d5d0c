import Foundation

/// Which files of the music directory are songs: by extension, the formats FFmpeg here decodes.
/// Hidden files and folders (a leading dot) are never songs, as in mpd.
package enum MusicFiles {
    package static let audioExtensions: Set<String> = [
        "mp3", "ogg", "oga", "opus", "flac", "m4a", "m4b", "aac", "wav", "mka", "webm", "wma", "aif", "aiff", "ape", "wv", "mpc",
    ]

    package static func isSong(name: String) -> Bool {
        guard !name.hasPrefix(".") else { return false }
        return audioExtensions.contains((name as NSString).pathExtension.lowercased())
    }

    /// The folder part of a relative path ("" at the top).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}
