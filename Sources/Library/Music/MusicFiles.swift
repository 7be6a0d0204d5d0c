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

    /// A cue sheet beside its image: indexed as a folder of its tracks (`album.cue/track0001`), as
    /// mpd lists one.
    package static func isCueSheet(name: String) -> Bool {
        guard !name.hasPrefix(".") else { return false }
        return (name as NSString).pathExtension.lowercased() == "cue"
    }

    /// What an update reads and indexes: songs, and cue sheets (whose rows are their tracks).
    package static func isIndexed(name: String) -> Bool { isSong(name: name) || isCueSheet(name: name) }

    /// The file on disk a row of the index comes from: the cue sheet for one of its tracks
    /// (`a/album.cue/track0002` comes from `a/album.cue`), else the row's own path. An update
    /// compares that file's stamp, and drops the row when that file is gone.
    package static func source(of path: String) -> String {
        let folder = directory(of: path)
        return isCueSheet(name: (folder as NSString).lastPathComponent) || isEmbeddedCueTrack(path) ? folder : path
    }

    /// A track of the cue sheet embedded in a FLAC file (`a/image.flac/track0002`): a song file's
    /// path, then `track` and four digits, a name no file of the music directory has (a song's
    /// name has an audio extension), so a folder named like a song is not taken for one.
    package static func isEmbeddedCueTrack(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        guard name.count == 9, name.hasPrefix("track"), name.dropFirst(5).allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        let folder = directory(of: path)
        return !folder.isEmpty && isSong(name: (folder as NSString).lastPathComponent)
    }

    /// The folder part of a relative path ("" at the top).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}
