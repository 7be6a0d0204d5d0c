import Foundation

/// A tag a song can carry, named as MPD names it (its `tagtypes`), so the names clients send in
/// `list`, `find` and filters, and print beside a song, are these raw values as they are.
public enum SongTag: String, CaseIterable, Codable, CodingKeyRepresentable, Sendable, Hashable {
    case artist = "Artist"
    case artistSort = "ArtistSort"
    case album = "Album"
    case albumSort = "AlbumSort"
    case albumArtist = "AlbumArtist"
    case albumArtistSort = "AlbumArtistSort"
    case title = "Title"
    case track = "Track"
    case name = "Name"
    case genre = "Genre"
    case date = "Date"
    case originalDate = "OriginalDate"
    case composer = "Composer"
    case performer = "Performer"
    case comment = "Comment"
    case disc = "Disc"
    case label = "Label"
    case musicBrainzArtistID = "MUSICBRAINZ_ARTISTID"
    case musicBrainzAlbumID = "MUSICBRAINZ_ALBUMID"
    case musicBrainzAlbumArtistID = "MUSICBRAINZ_ALBUMARTISTID"
    case musicBrainzTrackID = "MUSICBRAINZ_TRACKID"
    case musicBrainzReleaseTrackID = "MUSICBRAINZ_RELEASETRACKID"
    case musicBrainzWorkID = "MUSICBRAINZ_WORKID"

    /// The tag a client named, whatever its case (MPD compares tag names case-insensitively).
    /// Looked up for every song a database command reads, so by a table, not a comparison each.
    public init?(mpdName: String) {
        // The name as mpd spells it is the common case: looked up as given before lowercasing,
        // which allocates a string per call (a `find` over 10,000 songs asks once per song).
        guard let tag = Self.byName[mpdName] ?? Self.byLowercasedName[mpdName.lowercased()] else { return nil }
        self = tag
    }

    private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
    private static let byLowercasedName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue.lowercased(), $0) })
}

/// How a song is encoded, as read from its stream: what MPD prints as `Format` and `bitrate`.
public struct AudioProperties: Codable, Sendable, Hashable {
    /// Seconds, when the container or the stream tells.
    public var duration: Double?
    public var sampleRate: Int?
    /// Bits per sample of the source (0 or nil for lossy codecs, which have none).
    public var bitsPerSample: Int?
    public var channels: Int?
    /// FFmpeg's codec name ("mp3", "flac", "opus"...).
    public var codec: String?
    /// Kilobits per second, the stream's own or the container's average.
    public var bitrate: Int?

    public init(
        duration: Double? = nil, sampleRate: Int? = nil, bitsPerSample: Int? = nil, channels: Int? = nil, codec: String? = nil,
        bitrate: Int? = nil
    ) {
        self.duration = duration
        self.sampleRate = sampleRate
        self.bitsPerSample = bitsPerSample
        self.channels = channels
        self.codec = codec
        self.bitrate = bitrate
    }

    /// MPD's `Format` field: `rate:bits:channels` (`f` for floating-point and lossy sources).
    public var mpdFormat: String? {
        guard let sampleRate, let channels else { return nil }
        // FFmpeg decodes lossy codecs to floating point, which is what Tonearm plays.
        let bits = bitsPerSample.flatMap { $0 > 0 ? String($0) : nil } ?? "f"
        return "\(sampleRate):\(bits):\(channels)"
    }
}

/// What a file says about itself: its tags (each may have several values, as ID3v2.4 and Vorbis
/// comments allow), how it is encoded, and whether it carries a picture. A value type, the same
/// whether read from the file a moment ago or from the library's index.
public struct SongTags: Codable, Sendable, Hashable {
    /// Every tag's values in the order the file gave them; a tag the file lacks has no entry.
    public private(set) var values: [SongTag: [String]]
    public var audio: AudioProperties
    /// The file embeds a picture (MPD's `readpicture` answers it).
    public var hasEmbeddedPicture: Bool
    /// Set when the song is a part of a larger file (a cue sheet's track): which file and where.
    public var part: SongPart?

    public init(values: [SongTag: [String]] = [:], audio: AudioProperties = AudioProperties(), hasEmbeddedPicture: Bool = false) {
        self.values = [:]
        self.audio = audio
        self.hasEmbeddedPicture = hasEmbeddedPicture
        for (tag, list) in values { self[all: tag] = list }
    }

    /// The first value of `tag`, if any.
    public subscript(tag: SongTag) -> String? { values[tag]?.first }

    /// All values of `tag`; setting an empty list (or only blank values) removes the tag.
    public subscript(all tag: SongTag) -> [String] {
        get { values[tag] ?? [] }
        set {
            let kept = newValue.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            values[tag] = kept.isEmpty ? nil : kept
        }
    }

    public var isEmpty: Bool { values.isEmpty }

    /// The track number alone ("3" of "3/12"), when it is a number.
    public var trackNumber: Int? { Self.leadingNumber(self[.track]) }
    /// The disc number alone ("1" of "1/2"), when it is a number.
    public var discNumber: Int? { Self.leadingNumber(self[.disc]) }

    /// The number a "N" or "N/TOTAL" value starts with.
    public static func leadingNumber(_ value: String?) -> Int? {
        guard let value else { return nil }
        let digits = value.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : Int(digits.prefix(9))
    }
}
