import Foundation

/// A cue sheet's tracks as songs, each with the tags mpd 0.23 gives a cue track: the disc's
/// `TITLE` is the album, its `PERFORMER` the album artist, a track's `PERFORMER` its artist,
/// `REM GENRE`/`DATE` genre and date (a track's own over the disc's), the number as written
/// (`SONGWRITER` makes no tag, as in mpd, and `REM COMMENT` none, as mpd's default
/// `metadata_to_use` shows none); the length runs to the next track's `INDEX 01`,
/// the last track's to the end of its file. The reader completes them by the image's own tags
/// (`completed(by:)`), as mpd does.
extension CueSheet {
    /// The name of track `index` (0-based) inside its sheet, as mpd names it: `track0001`.
    public static func songName(ofTrack index: Int) -> String {
        let number = String(index + 1)
        return "track" + String(repeating: "0", count: max(0, 4 - number.count)) + number
    }

    /// Song `index`'s tags, given the image's own (its audio properties and length) and where the
    /// image is (relative to the music directory).
    public func songTags(ofTrack index: Int, image: String, imageTags: SongTags) -> SongTags {
        let track = tracks[index]
        var tags = SongTags(audio: imageTags.audio)
        func put(_ tag: SongTag, _ value: String?) { if let value { tags[all: tag] = [value] } }
        put(.album, disc.title)
        put(.albumArtist, disc.performer)
        put(.title, track.fields.title)
        put(.artist, track.fields.performer)
        put(.genre, track.fields.genre ?? disc.genre)
        put(.date, track.fields.date ?? disc.date)
        put(.track, track.number)
        let part = part(ofTrack: index, image: image)
        tags.part = part
        tags.audio.duration = part.duration(imageDuration: imageTags.audio.duration)
        return tags
    }
}

extension SongTags {
    /// These tags with each tag of `song` they lack: how mpd 0.23 completes a playlist's song by
    /// the song it points to (`TagBuilder::Complement`), so a cue track without `PERFORMER` has
    /// its image's artist, and one without `TITLE` its image's title.
    public func completed(by song: SongTags) -> SongTags {
        var merged = self
        for tag in SongTag.allCases where merged[all: tag].isEmpty && !song[all: tag].isEmpty {
            merged[all: tag] = song[all: tag]
        }
        return merged
    }
}
