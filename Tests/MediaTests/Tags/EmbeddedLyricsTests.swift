import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import Media

/// A song file's own lyrics: an ID3v2.4 `SYLT` frame written byte by byte (milliseconds read,
/// MPEG frames refused, word timing joined into lines, UTF-16), `USLT` and Vorbis and MP4 lyrics
/// tags written by ffmpeg (LRC in them followed, plain text shown whole), and the order of
/// preference when a file has several.
@Suite("Embedded lyrics")
struct EmbeddedLyricsTests {
    /// A `SYLT` body: `encoding`, language "eng", `format`, content type 1 (lyrics), an empty
    /// descriptor, then each text (NUL-terminated in the encoding) and its time.
    static func sylt(encoding: UInt8 = 3, format: UInt8 = 2, _ entries: [(text: String, time: Int)]) -> [UInt8] {
        let wide = encoding == 1
        func text(_ s: String) -> [UInt8] {
            wide ? [0xFF, 0xFE] + s.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } + [0, 0] : Array(s.utf8) + [0]
        }
        var body: [UInt8] = [encoding] + Array("eng".utf8) + [format, 1] + (wide ? [0xFF, 0xFE, 0, 0] : [0])
        for entry in entries { body += text(entry.text) + TagFixtures.bigEndian32(entry.time) }
        return body
    }

    /// A `USLT` body in UTF-8: language "eng", an empty descriptor, the text.
    static func uslt(_ text: String) -> [UInt8] { [3] + Array("eng".utf8) + [0] + Array(text.utf8) }

    /// An MP3 of one second of tone with no tag of ffmpeg's, after the ID3v2.4 tag of `frames`.
    static func mp3(_ frames: [(id: String, body: [UInt8])], in fixtures: borrowing TagFixtures, name: String = "song.mp3") throws -> URL {
        let audio = try FFmpegFixture.make(TagFixtures.tone + ["-id3v2_version", "0", "-write_xing", "0", "-c:a", "libmp3lame"], fileName: "raw.mp3").get()
        return try fixtures.write(name, TagFixtures.id3(version: 4, frames) + audio)
    }

    @Test func aSyltFrameInMillisecondsIsFollowed() throws {
        let fixtures = try TagFixtures()
        let file = try Self.mp3([("SYLT", Self.sylt([("First", 500), ("Second", 2_000), ("", 3_000), ("Third", 4_250)]))], in: fixtures)
        let lyrics = try #require(EmbeddedLyrics.transcript(of: file))
        #expect(lyrics.lyrics?.origin == .synchronisedFrame)
        #expect(lyrics.timed)
        #expect(lyrics.cues.map(\.text) == ["First", "Second", "Third"])
        #expect(lyrics.cues.map(\.start) == [0.5, 2, 4.25])
        #expect(lyrics.current(at: 2.5)?.cue.text == "Second")
        #expect(lyrics.current(at: 3.5) == nil, "an empty entry ends the line before it")
    }

    @Test func wordTimedUTF16SyltIsJoinedIntoLines() throws {
        let body = Self.sylt(encoding: 1, [("Hel", 1_000), ("lo ", 1_200), ("world", 1_500), ("\nЕщё", 3_000), (" раз", 3_400)])
        let frame = try ID3v2LyricsFrames.synchronised(body)
        #expect(frame.lines.map(\.text) == ["Hello world", "Ещё раз"])
        #expect(frame.lines.map(\.start) == [1, 3])
    }

    @Test func syltInMpegFramesIsRefusedAndTheUnsynchronisedTextShownInstead() throws {
        do {
            _ = try ID3v2LyricsFrames.synchronised(Self.sylt(format: 1, [("x", 10)]))
            Issue.record("times in MPEG frames were read")
        } catch {
            #expect(error.code == .unsupportedFormat)
        }
        do {
            _ = try ID3v2LyricsFrames.synchronised(Array(Self.sylt([("cut", 10)]).dropLast(2)))
            Issue.record("a cut entry was read")
        } catch {
            #expect(error.code == .malformedData)
        }
        let fixtures = try TagFixtures()
        let file = try Self.mp3([("SYLT", Self.sylt(format: 1, [("Framed", 10)])), ("USLT", Self.uslt("Plain one\nPlain two"))], in: fixtures)
        let lyrics = try #require(EmbeddedLyrics.transcript(of: file))
        #expect(!lyrics.timed)
        #expect(lyrics.lyrics?.origin == .tag)
        #expect(lyrics.cues.map(\.text) == ["Plain one", "Plain two"])
    }

    @Test func syltIsPreferredToLrcInUslt() throws {
        let fixtures = try TagFixtures()
        let file = try Self.mp3(
            [("USLT", Self.uslt("[00:01.00]From USLT")), ("SYLT", Self.sylt([("From SYLT", 1_000)]))], in: fixtures)
        #expect(EmbeddedLyrics.transcript(of: file)?.cues.map(\.text) == ["From SYLT"])
        let lrcOnly = try Self.mp3([("USLT", Self.uslt("[00:01.00]From USLT\n[00:02.00]Two"))], in: fixtures, name: "lrc.mp3")
        let lyrics = try #require(EmbeddedLyrics.transcript(of: lrcOnly))
        #expect(lyrics.timed && lyrics.cues.map(\.text) == ["From USLT", "Two"])
    }

    @Test func lyricsTagsWrittenByFFmpegAreRead() throws {
        let fixtures = try TagFixtures()
        // FLAC's LYRICS comment holding LRC: followed.
        let flac = try fixtures.make("lrc.flac", TagFixtures.tone + TagFixtures.metadata([("LYRICS", "[00:00.50]Vorbis one\n[00:01.50]Vorbis two")]))
        let fromFlac = try #require(EmbeddedLyrics.transcript(of: flac))
        #expect(fromFlac.timed && fromFlac.cues.map(\.text) == ["Vorbis one", "Vorbis two"])
        // Opus's UNSYNCEDLYRICS: shown whole.
        let opus = try fixtures.make("plain.opus", TagFixtures.tone + ["-c:a", "libopus"] + TagFixtures.metadata([("UNSYNCEDLYRICS", "Opus one\nOpus two")]))
        let fromOpus = try #require(EmbeddedLyrics.transcript(of: opus))
        #expect(!fromOpus.timed && fromOpus.cues.map(\.text) == ["Opus one", "Opus two"])
        // MP3's USLT, as ffmpeg writes `lyrics`.
        let mp3 = try fixtures.make("uslt.mp3", TagFixtures.tone + ["-id3v2_version", "3"] + TagFixtures.metadata([("lyrics", "MP3 words")]))
        #expect(EmbeddedLyrics.transcript(of: mp3)?.cues.map(\.text) == ["MP3 words"])
        // MP4's ©lyr.
        let m4a = try fixtures.make("lyr.m4a", TagFixtures.tone + ["-c:a", "aac"] + TagFixtures.metadata([("lyrics", "[00:00.25]MP4 line")]))
        #expect(EmbeddedLyrics.transcript(of: m4a)?.cues.map(\.text) == ["MP4 line"])
        // None.
        let none = try fixtures.make("none.flac", TagFixtures.tone + TagFixtures.metadata([("title", "No words")]))
        #expect(EmbeddedLyrics.transcript(of: none) == nil)
    }

    @Test func aHostileTagGivesNothingOrBoundedLyrics() throws {
        let fixtures = try TagFixtures()
        // A frame claiming to run past its tag, and one of garbage: nothing, no crash.
        var broken = TagFixtures.id3(version: 4, [("SYLT", Self.sylt([("x", 1)]))])
        broken[9] = 0x01
        let file = try fixtures.write("broken.mp3", broken + Data(repeating: 0xFF, count: 64))
        #expect(EmbeddedLyrics.transcript(of: file) == nil)
        let garbage = try Self.mp3([("SYLT", [3, 0x65, 0x6E, 0x67, 2, 1] + Array(repeating: 0x41, count: 5_000))], in: fixtures, name: "garbage.mp3")
        #expect(EmbeddedLyrics.transcript(of: garbage) == nil)
    }
}
