import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

/// `TagReader` over real files made by ffmpeg (and built byte by byte where ffmpeg cannot write the
/// case): every container's tags, audio properties, bounds and typed errors.
@Suite("Tag reader")
struct TagReaderTests {
    static let common: [(String, String)] = [
        ("title", "Привет, мир"), ("artist", "The Artist"), ("album", "The Album"), ("album_artist", "Album Artist"),
        ("track", "3/12"), ("disc", "1/2"), ("date", "2001-05-06"), ("genre", "Rock"), ("composer", "The Composer"),
        ("comment", "A comment"),
    ]

    /// The tags every container below writes, read back.
    func expectCommon(_ tags: SongTags, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(tags[.title] == "Привет, мир", sourceLocation: sourceLocation)
        #expect(tags[.artist] == "The Artist", sourceLocation: sourceLocation)
        #expect(tags[.album] == "The Album", sourceLocation: sourceLocation)
        #expect(tags[.albumArtist] == "Album Artist", sourceLocation: sourceLocation)
        #expect(tags[.track] == "3/12", sourceLocation: sourceLocation)
        #expect(tags.trackNumber == 3, sourceLocation: sourceLocation)
        #expect(tags[.disc] == "1/2", sourceLocation: sourceLocation)
        #expect(tags.discNumber == 1, sourceLocation: sourceLocation)
        #expect(tags[.date] == "2001-05-06", sourceLocation: sourceLocation)
        #expect(tags[.genre] == "Rock", sourceLocation: sourceLocation)
        #expect(tags[.composer] == "The Composer", sourceLocation: sourceLocation)
        #expect(tags[.comment] == "A comment", sourceLocation: sourceLocation)
    }

    @Test("MP3 with ID3v2.3 and ID3v2.4: FFmpeg's names, raw frames and TXXX keys all map", arguments: ["3", "4"])
    func mp3(version: String) throws {
        let files = try TagFixtures()
        let extra: [(String, String)] = [
            ("performer", "The Performer"), ("publisher", "The Label"), ("artist-sort", "Artist, The"), ("album-sort", "Album, The"),
            ("TDOR", "1999-01-02"), ("MusicBrainz Album Id", "9e8a1c1a-0000-4000-8000-000000000001"),
            ("MusicBrainz Artist Id", "9e8a1c1a-0000-4000-8000-000000000002"),
        ]
        let url = try files.make(
            "song.mp3", TagFixtures.tone + TagFixtures.metadata(Self.common + extra) + ["-b:a", "128k", "-id3v2_version", version])
        let tags = try TagReader.read(url)
        expectCommon(tags)
        #expect(tags[.performer] == "The Performer")
        #expect(tags[.label] == "The Label")
        #expect(tags[.artistSort] == "Artist, The")
        #expect(tags[.albumSort] == "Album, The")
        #expect(tags[.originalDate] == "1999-01-02")
        #expect(tags[.musicBrainzAlbumID] == "9e8a1c1a-0000-4000-8000-000000000001")
        #expect(tags[.musicBrainzArtistID] == "9e8a1c1a-0000-4000-8000-000000000002")
        #expect(tags.audio.codec == "mp3")
        #expect(tags.audio.sampleRate == 44_100)
        #expect(tags.audio.channels == 1)
        #expect(tags.audio.bitsPerSample == 0)
        #expect(tags.audio.bitrate == 128)
        #expect(abs((tags.audio.duration ?? 0) - 1) < 0.1)
        #expect(tags.audio.mpdFormat == "44100:f:1")
        #expect(!tags.hasEmbeddedPicture)
    }

    @Test("FLAC: Vorbis comments, lossless bits, and repeated comments as several values")
    func flac() throws {
        let files = try TagFixtures()
        let plain = try files.make("plain.flac", TagFixtures.tone + TagFixtures.metadata(Self.common) + ["-ac", "2", "-sample_fmt", "s16"])
        let tags = try TagReader.read(plain)
        expectCommon(tags)
        #expect(tags.audio.codec == "flac")
        #expect(tags.audio.bitsPerSample == 16)
        #expect(tags.audio.channels == 2)
        #expect(tags.audio.mpdFormat == "44100:16:2")

        let comments = [
            "TITLE=One; Two", "ARTIST=First", "ARTIST=Second", "artist=First", "Genre=Jazz", "GENRE=Blues",
            "MUSICBRAINZ_ALBUMID=mb-album", "ALBUMARTISTSORT=Sort", "LABEL=Label", "TRACKNUMBER=7", "ORIGINALDATE=1970",
        ]
        let repeated = try files.write("repeated.flac", TagFixtures.flac(try Data(contentsOf: plain), comments: comments))
        let many = try TagReader.read(repeated)
        #expect(many[all: .artist] == ["First", "Second"])
        #expect(many[all: .genre] == ["Jazz", "Blues"])
        #expect(many[all: .title] == ["One; Two"], "a title is never split")
        #expect(many[.musicBrainzAlbumID] == "mb-album")
        #expect(many[.albumArtistSort] == "Sort")
        #expect(many[.label] == "Label")
        #expect(many[.track] == "7")
        #expect(many[.originalDate] == "1970")
    }

    @Test("Ogg Vorbis and Opus keep their comments on the stream", arguments: [("song.ogg", "libvorbis", "vorbis"), ("song.opus", "libopus", "opus")])
    func ogg(name: String, encoder: String, codec: String) throws {
        let files = try TagFixtures()
        let url = try files.make(name, TagFixtures.tone + TagFixtures.metadata(Self.common) + ["-c:a", encoder])
        let tags = try TagReader.read(url)
        expectCommon(tags)
        #expect(tags.audio.codec == codec)
        #expect(tags.audio.bitsPerSample == 0)
        #expect(tags.audio.sampleRate == (codec == "opus" ? 48_000 : 44_100))
        #expect(abs((tags.audio.duration ?? 0) - 1) < 0.1)
    }

    @Test("M4A: MP4 atoms")
    func m4a() throws {
        let files = try TagFixtures()
        let url = try files.make("song.m4a", TagFixtures.tone + TagFixtures.metadata(Self.common) + ["-c:a", "aac", "-b:a", "96k"])
        let tags = try TagReader.read(url)
        expectCommon(tags)
        #expect(tags.audio.codec == "aac")
        #expect(tags.audio.bitsPerSample == 0)
        #expect(tags.audio.bitrate.map { (60...130).contains($0) } == true, "\(String(describing: tags.audio.bitrate))")
    }

    @Test("WavPack: APEv2 items, named as APE names them")
    func apeTags() throws {
        let files = try TagFixtures()
        let url = try files.make(
            "song.wv",
            TagFixtures.tone + TagFixtures.metadata([
                ("Title", "Привет, мир"), ("Artist", "The Artist"), ("Album Artist", "Album Artist"), ("Track", "3/12"), ("Year", "2001"),
                ("MUSICBRAINZ_ALBUMID", "mb-album"), ("Label", "The Label"),
            ]) + ["-c:a", "wavpack"])
        let tags = try TagReader.read(url)
        #expect(tags[.title] == "Привет, мир")
        #expect(tags[.artist] == "The Artist")
        #expect(tags[.albumArtist] == "Album Artist")
        #expect(tags[.track] == "3/12")
        #expect(tags[.date] == "2001")
        #expect(tags[.musicBrainzAlbumID] == "mb-album")
        #expect(tags[.label] == "The Label")
        #expect(tags.audio.codec == "wavpack")
        #expect(tags.audio.bitsPerSample == 16)
    }

    @Test("A Latin-1 ID3v2.3 frame reads as UTF-8")
    func latin1() throws {
        let files = try TagFixtures()
        let bare = try FFmpegFixtureBytes.mp3WithoutTags()
        let tag = TagFixtures.id3v23([("TIT2", [0x43, 0x61, 0x66, 0xE9]), ("TPE1", Array("Beyonc".utf8) + [0xE9])])
        let url = try files.write("latin1.mp3", tag + bare)
        let tags = try TagReader.read(url)
        #expect(tags[.title] == "Café")
        #expect(tags[.artist] == "Beyoncé")
    }

    @Test("ID3v2 NUL-separated values become several values of list tags; pictures are skipped over")
    func id3Lists() throws {
        let files = try TagFixtures()
        let bare = try FFmpegFixtureBytes.mp3WithoutTags()
        let utf8: (String) -> [UInt8] = { [3] + Array($0.utf8) }
        let picture = [UInt8(0)] + Array("image/jpeg".utf8) + [0, 3, 0] + [UInt8](repeating: 0xAB, count: 200_000)
        let v24 = TagFixtures.id3(version: 4, [
            ("TIT2", utf8("One\u{0}Title")), ("APIC", picture), ("TPE1", utf8("Анна\u{0}Boris\u{0}")), ("TCON", utf8("Rock\u{0}Pop")),
            ("TXXX", utf8("MusicBrainz Artist Id\u{0}mb-1\u{0}mb-2")), ("TPE2", utf8("Only")),
        ])
        let tags = try TagReader.read(try files.write("v24.mp3", v24 + bare))
        #expect(tags[all: .artist] == ["Анна", "Boris"])
        #expect(tags[all: .genre] == ["Rock", "Pop"])
        #expect(tags[all: .musicBrainzArtistID] == ["mb-1", "mb-2"])
        #expect(tags[all: .albumArtist] == ["Only"])
        #expect(tags[all: .title] == ["One"], "a title is not a list: FFmpeg's first value stands")
        #expect(tags.audio.codec == "mp3")

        // UTF-16 with a byte order mark before each value, in ID3v2.3; a numeric genre is FFmpeg's to name.
        let utf16: [UInt8] = [1, 0xFF, 0xFE] + Array("Xé".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) + [0, 0, 0xFF, 0xFE, 0x59, 0]
        let v23 = TagFixtures.id3(version: 3, [("TPE1", utf16), ("TCON", [0] + Array("(17)".utf8) + [0] + Array("Pop".utf8))])
        let older = try TagReader.read(try files.write("v23.mp3", v23 + bare))
        #expect(older[all: .artist] == ["Xé", "Y"])
        #expect(older[.genre] != nil && older[all: .genre] != ["(17)", "Pop"])
    }

    @Test("A 1 MB title is cut to the bound, at a character; control characters become spaces")
    func hugeTitle() throws {
        let files = try TagFixtures()
        let bare = try FFmpegFixtureBytes.mp3WithoutTags()
        let title = [UInt8](repeating: 0xE9, count: 1 << 20)  // é in Latin-1, two bytes in UTF-8
        let tag = TagFixtures.id3v23([("TIT2", title), ("TPE1", Array("Line\none\ttwo".utf8))])
        let url = try files.write("huge.mp3", tag + bare)
        let tags = try TagReader.read(url)
        let read = try #require(tags[.title])
        #expect(read.utf8.count <= MediaLimits.maxTagValueBytes)
        #expect(read.utf8.count >= MediaLimits.maxTagValueBytes - 1)
        #expect(read.allSatisfy { $0 == "é" })
        #expect(tags[.artist] == "Line one two")
        #expect(tags.audio.codec == "mp3")
    }

    @Test("Hostile files end in typed errors: missing, a folder, empty, random bytes, not audio")
    func hostile() throws {
        let files = try TagFixtures()
        #expect(throws: PlaybackError(.fileNotFound)) { try TagReader.read(files.folder.appendingPathComponent("missing.mp3")) }
        #expect(throws: PlaybackError(.fileNotFound)) { try TagReader.read(files.folder) }
        let empty = try files.write("empty.mp3", Data())
        #expect(throws: PlaybackError(.unsupportedFormat)) { try TagReader.read(empty) }
        var generator = SystemRandomNumberGenerator()
        let noise = try files.write("noise.flac", Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        do {
            let tags = try TagReader.read(noise)
            // Random bytes may happen to look like a raw stream FFmpeg knows: then no tag comes from them.
            #expect(tags.isEmpty)
        } catch {
            #expect(error.code == .unsupportedFormat)
        }
        let picture = try files.make("picture.png", ["-f", "lavfi", "-i", "color=red:s=8x8", "-frames:v", "1"])
        #expect(throws: PlaybackError(.unsupportedFormat)) { try TagReader.read(picture) }
    }

    @Test("A truncated file reads what is left, or fails typed")
    func truncated() throws {
        let files = try TagFixtures()
        let whole = try Data(
            contentsOf: try files.make("whole.mp3", TagFixtures.tone + TagFixtures.metadata(Self.common) + ["-id3v2_version", "4"]))
        for length in [10, 64, 200, whole.count / 2] {
            let url = try files.write("cut\(length).mp3", whole.prefix(length))
            do {
                let tags = try TagReader.read(url)
                for values in tags.values.values { #expect(values.allSatisfy { $0.utf8.count <= MediaLimits.maxTagValueBytes }) }
            } catch {
                #expect(error.code == .unsupportedFormat, "\(length) bytes: \(error)")
            }
        }
    }
}

/// An MP3 with no tag at all, for tags built by hand in front of it.
enum FFmpegFixtureBytes {
    static func mp3WithoutTags() throws -> Data {
        try FFmpegFixture.make(TagFixtures.tone + ["-id3v2_version", "0", "-write_xing", "0"], fileName: "bare.mp3").get()
    }
}
