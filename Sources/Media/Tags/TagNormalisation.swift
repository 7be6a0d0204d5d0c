import CFFmpeg
import Foundation
import PlayerCore

/// How the keys and values FFmpeg reads from a file (ID3v2.3/2.4 frames, Vorbis comments, APEv2
/// items, MP4 atoms) become `SongTag` values. Pure functions over text, so every rule is tested
/// without a file.
///
/// Keys: compared case-insensitively and without spaces, underscores and hyphens, so FFmpeg's names
/// (`album_artist`, `artist-sort`), Vorbis and APE names (`ALBUMARTIST`, `Album Artist`), ID3
/// frames FFmpeg keeps raw (`TDOR`, `TSO2`) and MusicBrainz's two spellings (`MusicBrainz Album Id`
/// in ID3 TXXX and MP4 freeform atoms, `MUSICBRAINZ_ALBUMID` in Vorbis comments) meet. When two keys
/// name one tag (`date` and `year`), the first the file gives wins.
///
/// Values: at most `MediaLimits.maxTagValueBytes` bytes each, cut at a character; invalid UTF-8
/// replaced (U+FFFD); control characters made spaces, as MPD does, so a value is always one line;
/// at most `MediaLimits.maxValuesPerTag` values a tag. Track and disc numbers are kept as given
/// ("3/12"), as MPD prints them.
package enum TagNormalisation {
    /// The tag a file's key names, or nil for keys Tonearm does not keep (encoder, TXXX of other
    /// programs...).
    package static func tag(forKey key: String) -> SongTag? {
        keys[folded(key)]
    }

    /// The key without case, spaces, underscores and hyphens.
    static func folded(_ key: String) -> String {
        String(key.lowercased().unicodeScalars.filter { $0 != " " && $0 != "_" && $0 != "-" })
    }

    private static let keys: [String: SongTag] = [
        "title": .title, "tit2": .title,
        "artist": .artist, "tpe1": .artist,
        "album": .album, "talb": .album,
        "albumartist": .albumArtist, "tpe2": .albumArtist,
        "track": .track, "tracknumber": .track, "trck": .track,
        "disc": .disc, "discnumber": .disc, "tpos": .disc,
        "date": .date, "year": .date, "tdrc": .date, "tyer": .date,
        "originaldate": .originalDate, "tdor": .originalDate, "originalyear": .originalDate, "tory": .originalDate,
        "genre": .genre, "tcon": .genre,
        "composer": .composer, "tcom": .composer,
        "performer": .performer, "tpe3": .performer,
        "comment": .comment, "description": .comment,
        "publisher": .label, "label": .label, "organization": .label, "tpub": .label,
        "artistsort": .artistSort, "tsop": .artistSort, "sortartist": .artistSort,
        "albumsort": .albumSort, "tsoa": .albumSort, "sortalbum": .albumSort,
        "albumartistsort": .albumArtistSort, "tso2": .albumArtistSort, "sortalbumartist": .albumArtistSort,
        "musicbrainzartistid": .musicBrainzArtistID,
        "musicbrainzalbumid": .musicBrainzAlbumID,
        "musicbrainzalbumartistid": .musicBrainzAlbumArtistID,
        "musicbrainztrackid": .musicBrainzTrackID,
        "musicbrainzreleasetrackid": .musicBrainzReleaseTrackID,
        "musicbrainzworkid": .musicBrainzWorkID,
    ]

    /// Tags that hold lists. FFmpeg joins a Vorbis comment given several times (`ARTIST=A`,
    /// `ARTIST=B`) into one value with ";"; for these tags such a value is split again. Titles and
    /// albums are never split: a ";" in them is the name's own.
    package static let listTags: Set<SongTag> = [
        .artist, .albumArtist, .artistSort, .albumArtistSort, .genre, .composer, .performer, .label,
        .musicBrainzArtistID, .musicBrainzAlbumArtistID, .musicBrainzWorkID,
    ]

    /// Every tag's values from a file's entries, in the file's order.
    /// - Parameter splitsJoinedLists: the entries come from Vorbis comments (FLAC, Ogg, Opus), whose
    ///   repeated fields FFmpeg joined with ";".
    package static func values(from entries: [(key: String, value: String)], splitsJoinedLists: Bool) -> [SongTag: [String]] {
        var values: [SongTag: [String]] = [:]
        var sourceKey: [SongTag: String] = [:]
        for entry in entries {
            guard let tag = tag(forKey: entry.key) else { continue }
            let key = folded(entry.key)
            if let first = sourceKey[tag], first != key { continue }  // another name of a tag already given
            sourceKey[tag] = key
            let parts = splitsJoinedLists && listTags.contains(tag) ? entry.value.split(separator: ";").map(String.init) : [entry.value]
            for part in parts {
                let value = cleaned(bounded(part))
                guard !value.isEmpty, (values[tag]?.count ?? 0) < MediaLimits.maxValuesPerTag else { continue }
                if values[tag]?.contains(value) == true { continue }
                values[tag, default: []].append(value)
            }
        }
        return values
    }

    /// Lists of list tags read beside FFmpeg (an ID3v2 frame's NUL-separated values) replace the
    /// first value FFmpeg kept. A genre list with a numeric ID3v1 genre ("17", "(17)") is left to
    /// FFmpeg, which names those.
    package static func takeLists(from frames: [(key: String, values: [String])], into values: inout [SongTag: [String]]) {
        for frame in frames where frame.values.count > 1 {
            guard let tag = tag(forKey: frame.key), listTags.contains(tag) else { continue }
            if tag == .genre, frame.values.contains(where: { $0.allSatisfy { $0.isNumber || $0 == "(" || $0 == ")" } }) { continue }
            let entries = frame.values.map { (key: frame.key, value: $0) }
            if let list = Self.values(from: entries, splitsJoinedLists: false)[tag] { values[tag] = list }
        }
    }

    /// At most `limit` bytes of UTF-8, cut at a character.
    package static func bounded(_ value: String, limit: Int = MediaLimits.maxTagValueBytes) -> String {
        guard value.utf8.count > limit else { return value }
        var bytes = Array(value.utf8.prefix(limit + 1))
        var count = limit
        while count > 0, bytes[count] & 0xC0 == 0x80 { count -= 1 }
        bytes.removeSubrange(count...)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A value as one clean line: control characters (C0, DEL, C1) become spaces, ends trimmed.
    package static func cleaned(_ value: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            let v = scalar.value
            scalars.append(v < 0x20 || (0x7F...0x9F).contains(v) ? " " : scalar)
        }
        return String(scalars).trimmingCharacters(in: .whitespaces)
    }

    /// A C string from FFmpeg as text: at most `limit` bytes, cut back to a character's first byte
    /// when longer, invalid UTF-8 replaced.
    package static func boundedText(_ pointer: UnsafePointer<CChar>, limit: Int = MediaLimits.maxTagValueBytes) -> String {
        let length = strnlen(pointer, limit + 1)
        var count = min(length, limit)
        let bytes = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
        if length > limit {
            // Never cut inside a character: step back over continuation bytes (10xxxxxx).
            while count > 0, bytes[count] & 0xC0 == 0x80 { count -= 1 }
        }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// An FFmpeg dictionary's entries, at most `MediaLimits.maxTags`, keys and values bounded.
    static func entries(of dictionary: OpaquePointer?) -> [(key: String, value: String)] {
        var entries: [(key: String, value: String)] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while entries.count < MediaLimits.maxTags, let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            entry = next
            guard let key = next.pointee.key, let value = next.pointee.value else { continue }
            entries.append((boundedText(key, limit: 128), boundedText(value)))
        }
        return entries
    }
}
