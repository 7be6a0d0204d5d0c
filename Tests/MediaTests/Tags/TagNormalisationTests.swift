import Media
import PlayerCore
import Testing

/// The rules that turn a file's keys and values into `SongTag` values, without a file.
@Suite("Tag normalisation")
struct TagNormalisationTests {
    @Test("Keys of ID3, Vorbis, APE and MP4 name the same tags, whatever their case and separators")
    func keys() {
        let cases: [(String, SongTag)] = [
            ("TITLE", .title), ("album_artist", .albumArtist), ("ALBUMARTIST", .albumArtist), ("Album Artist", .albumArtist),
            ("artist-sort", .artistSort), ("sort_artist", .artistSort), ("TSOP", .artistSort), ("TSO2", .albumArtistSort),
            ("album-sort", .albumSort), ("TDOR", .originalDate), ("ORIGINALDATE", .originalDate), ("TRACKNUMBER", .track),
            ("DISCNUMBER", .disc), ("Year", .date), ("organization", .label), ("publisher", .label),
            ("MusicBrainz Album Id", .musicBrainzAlbumID), ("MUSICBRAINZ_ALBUMID", .musicBrainzAlbumID),
            ("MusicBrainz Album Artist Id", .musicBrainzAlbumArtistID), ("MUSICBRAINZ_RELEASETRACKID", .musicBrainzReleaseTrackID),
            ("musicbrainz_workid", .musicBrainzWorkID), ("MUSICBRAINZ_TRACKID", .musicBrainzTrackID),
        ]
        for (key, tag) in cases { #expect(TagNormalisation.tag(forKey: key) == tag, "\(key)") }
        #expect(TagNormalisation.tag(forKey: "encoder") == nil)
        #expect(TagNormalisation.tag(forKey: "major_brand") == nil)
    }

    @Test("The first name of a tag wins; joined Vorbis lists split for list tags only; values capped in number")
    func values() {
        let entries: [(key: String, value: String)] = [
            ("date", "2001"), ("year", "1999"), ("ARTIST", "A;B; C"), ("title", "x;y"), ("genre", "Rock"),
        ]
        let split = TagNormalisation.values(from: entries, splitsJoinedLists: true)
        #expect(split[.date] == ["2001"])
        #expect(split[.artist] == ["A", "B", "C"])
        #expect(split[.title] == ["x;y"])
        let kept = TagNormalisation.values(from: entries, splitsJoinedLists: false)
        #expect(kept[.artist] == ["A;B; C"])
        let many = (0..<100).map { "v\($0)" }.joined(separator: ";")
        #expect(TagNormalisation.values(from: [("artist", many)], splitsJoinedLists: true)[.artist]?.count == MediaLimits.maxValuesPerTag)
    }

    @Test("Values are cut at a character, invalid UTF-8 replaced, control characters made spaces")
    func boundedText() {
        let long = String(repeating: "ж", count: 1_000)  // two bytes each
        let cut = long.withCString { TagNormalisation.boundedText($0, limit: 101) }
        #expect(cut == String(repeating: "ж", count: 50))
        let invalid: [CChar] = [0x41, CChar(bitPattern: 0xFF), 0x42, 0]
        #expect(invalid.withUnsafeBufferPointer { TagNormalisation.boundedText($0.baseAddress!) } == "A\u{FFFD}B")
        #expect(TagNormalisation.cleaned(" a\nb\u{7F}c\u{85}d ") == "a b c d")
    }
}
