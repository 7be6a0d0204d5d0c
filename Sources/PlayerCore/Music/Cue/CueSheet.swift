import Foundation

/// A cue sheet as read: the disc's fields, and each audio track with the file it is in and where
/// it starts. Only what a player needs is kept (no flags, ISRC, pregaps or catalog numbers).
public struct CueSheet: Sendable, Hashable {
    /// Fields a cue sheet gives the disc or a track (`TITLE`, `PERFORMER`, `SONGWRITER`, and the
    /// `REM` comments that programs write).
    public struct Fields: Sendable, Hashable {
        public var title: String?
        public var performer: String?
        public var songwriter: String?
        public var genre: String?
        public var date: String?
        public var comment: String?

        public init(
            title: String? = nil, performer: String? = nil, songwriter: String? = nil, genre: String? = nil, date: String? = nil,
            comment: String? = nil
        ) {
            self.title = title
            self.performer = performer
            self.songwriter = songwriter
            self.genre = genre
            self.date = date
            self.comment = comment
        }
    }

    public struct Track: Sendable, Hashable {
        /// The number as written (`01`), which mpd prints as `Track`.
        public var number: String
        /// The `FILE` the track is in, as written (relative to the cue sheet's folder).
        public var file: String
        /// Its `INDEX 01`, in CD frames (75 a second).
        public var startFrame: Int
        public var fields: Fields

        public init(number: String, file: String, startFrame: Int, fields: Fields = Fields()) {
            self.number = number
            self.file = file
            self.startFrame = startFrame
            self.fields = fields
        }
    }

    public var disc: Fields
    /// `REM DISCID` (the freedb disc id), kept for display; mpd makes no tag of it.
    public var discID: String?
    /// Audio tracks in the order of the sheet; data tracks and tracks without `INDEX 01` left out.
    public var tracks: [Track]

    public init(disc: Fields = Fields(), discID: String? = nil, tracks: [Track] = []) {
        self.disc = disc
        self.discID = discID
        self.tracks = tracks
    }

    /// Where track `index` lies in its file: from its `INDEX 01` to the next track's when that
    /// one is in the same file, else to the end of the file.
    public func part(ofTrack index: Int, image: String) -> SongPart {
        let track = tracks[index]
        let next = tracks.indices.contains(index + 1) ? tracks[index + 1] : nil
        let end = next.flatMap { $0.file == track.file ? $0.startFrame : nil }
        return SongPart(image: image, startFrame: track.startFrame, endFrame: end)
    }

    /// Where a sheet's `FILE` is, given the sheet's folder (`/`-separated, relative to the music
    /// directory or to where the sheet was named): beside the sheet or below it. A name that
    /// climbs out (`..`) or is absolute is refused, so a sheet never makes Tonearm open a file
    /// outside the folder it came from.
    public static func imagePath(_ file: String, besides folder: String) throws(PlaybackError) -> String {
        let parts = file.replacingOccurrences(of: "\\", with: "/").split(separator: "/", omittingEmptySubsequences: true)
        guard !file.hasPrefix("/"), !parts.isEmpty, !parts.contains(where: { $0 == ".." || $0 == "." }) else {
            throw PlaybackError(.malformedData, underlying: "cue sheet FILE outside its folder")
        }
        let relative = parts.joined(separator: "/")
        return folder.isEmpty ? relative : folder + "/" + relative
    }
}
