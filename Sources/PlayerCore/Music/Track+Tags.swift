import Foundation

extension Track {
    /// A local file shown by what its tags say: title, artists and album from the tags, the file's
    /// name as the title only when the tags have none; the duration the file's stream states,
    /// else `duration`. The tags travel with the track for the screens and MPRIS.
    public static func localFile(id: String, url: URL, tags: SongTags?, duration: TimeInterval? = nil) -> Track {
        let fileName = url.deletingPathExtension().lastPathComponent
        return Track(
            id: id, url: url, kind: .file, title: tags?[.title] ?? (fileName.isEmpty || fileName == "/" ? nil : fileName),
            artist: tags.flatMap(Self.artistLine), album: tags?[.album], duration: tags?.audio.duration ?? duration, tags: tags)
    }

    /// A song's artists as one line ("A, B"); nil without any.
    public static func artistLine(_ tags: SongTags) -> String? {
        let artists = tags[all: .artist]
        return artists.isEmpty ? nil : artists.joined(separator: ", ")
    }
}
