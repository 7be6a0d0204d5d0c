import Foundation
import PlayerCore
import Testing

/// Cue sheets read as mpd reads them: the disc's and tracks' fields, starts in CD frames, the
/// encodings and line ends rippers write, and hostile input ending in a typed error.
@Suite("Cue sheet parser")
struct CueSheetParserTests {
    static let sheet = """
        REM GENRE "Ambient"
        REM DATE 2020
        REM DISCID 2A0B1C03
        REM COMMENT "ExactAudioCopy v1.6"
        PERFORMER "Tone Band"
        TITLE "Three Tones"
        SONGWRITER "Someone"
        FILE "image.flac" WAVE
          TRACK 01 AUDIO
            TITLE "Low"
            INDEX 01 00:00:00
          TRACK 02 AUDIO
            TITLE Middle
            PERFORMER "Guest"
            REM GENRE Drone
            INDEX 01 00:02:00
          TRACK 03 AUDIO
            TITLE "High"
            INDEX 00 00:04:70
            INDEX 01 00:05:01
        """

    @Test func discAndTrackFieldsAndStarts() throws {
        let cue = try CueSheetParser.parse(Data(Self.sheet.utf8))
        #expect(cue.disc == CueSheet.Fields(title: "Three Tones", performer: "Tone Band", songwriter: "Someone", genre: "Ambient", date: "2020", comment: "ExactAudioCopy v1.6"))
        #expect(cue.discID == "2A0B1C03")
        #expect(cue.tracks.map(\.number) == ["01", "02", "03"])
        #expect(cue.tracks.map(\.file) == ["image.flac", "image.flac", "image.flac"])
        #expect(cue.tracks.map(\.startFrame) == [0, 150, 5 * 75 + 1])
        #expect(cue.tracks[1].fields.title == "Middle", "an unquoted value is one word")
        #expect(cue.tracks[1].fields.performer == "Guest")
        #expect(cue.tracks[1].fields.genre == "Drone")
    }

    @Test func partsRunToTheNextTracksIndex01AndTheLastToTheEnd() throws {
        let cue = try CueSheetParser.parse(Data(Self.sheet.utf8))
        #expect(cue.part(ofTrack: 0, image: "a/image.flac") == SongPart(image: "a/image.flac", startFrame: 0, endFrame: 150))
        #expect(cue.part(ofTrack: 1, image: "a/image.flac").endFrame == 376, "INDEX 00 of the next track is its pregap, the end is its INDEX 01")
        #expect(cue.part(ofTrack: 2, image: "a/image.flac").endFrame == nil)
        let part = cue.part(ofTrack: 1, image: "x")
        #expect(part.startSample(rate: 44_100) == 88_200 && part.endSample(rate: 44_100) == 376 * 588)
        #expect(part.startSample(rate: 48_000) == 96_000 && part.endSample(rate: 48_000) == 376 * 640)
    }

    @Test func songTagsAreMPDs() throws {
        let cue = try CueSheetParser.parse(Data(Self.sheet.utf8))
        let image = SongTags(values: [.title: ["whole image"]], audio: AudioProperties(duration: 7.5, sampleRate: 44_100, bitsPerSample: 16, channels: 1, codec: "flac"))
        let second = cue.songTags(ofTrack: 1, image: "a/image.flac", imageTags: image)
        #expect(second[.title] == "Middle" && second[.artist] == "Guest" && second[.album] == "Three Tones")
        #expect(second[.albumArtist] == "Tone Band" && second[.track] == "02" && second[.genre] == "Drone" && second[.date] == "2020")
        #expect(second[.composer] == nil && second[.comment] == nil, "SONGWRITER and REM COMMENT make no tag, as in mpd")
        #expect(abs((second.audio.duration ?? 0) - (376.0 - 150.0) / 75) < 1e-9)
        #expect(second.audio.sampleRate == 44_100)
        let first = cue.songTags(ofTrack: 0, image: "a/image.flac", imageTags: image)
        #expect(first[.artist] == nil, "a disc's PERFORMER is the album artist only")
        let last = cue.songTags(ofTrack: 2, image: "a/image.flac", imageTags: image)
        #expect(abs((last.audio.duration ?? 0) - (7.5 - 376.0 / 75)) < 1e-9)
        #expect(CueSheet.songName(ofTrack: 0) == "track0001" && CueSheet.songName(ofTrack: 98) == "track0099")
        // The part travels in the tags' JSON (the index keeps it there).
        let decoded = try JSONDecoder().decode(SongTags.self, from: JSONEncoder().encode(second))
        #expect(decoded == second && decoded.part?.startFrame == 150)
        #expect(try JSONDecoder().decode(SongTags.self, from: Data(#"{"values":{},"audio":{},"hasEmbeddedPicture":false}"#.utf8)).part == nil)
    }

    @Test func crlfLatin1AndAByteOrderMark() throws {
        let latin1 = "PERFORMER \"Bj\u{F6}rk\"\r\nFILE \"f.wav\" WAVE\r\n  TRACK 01 AUDIO\r\n    TITLE \"Caf\u{E9}\"\r\n    INDEX 01 01:00:00\r\n"
        let cue = try CueSheetParser.parse(latin1.data(using: .isoLatin1)!)
        #expect(cue.disc.performer == "Björk" && cue.tracks.first?.fields.title == "Café" && cue.tracks.first?.startFrame == 4500)
        let utf8 = Data([0xEF, 0xBB, 0xBF]) + Data("TITLE \"Группа крови\"\nFILE a.flac FLAC\nTRACK 1 AUDIO\nINDEX 01 00:00:00\n".utf8)
        let russian = try CueSheetParser.parse(utf8)
        #expect(russian.disc.title == "Группа крови" && russian.tracks.count == 1)
        let lowercase = try CueSheetParser.parse(Data("file a.flac wave\ntrack 01 audio\nindex 01 00:01:00\n".utf8))
        #expect(lowercase.tracks.map(\.startFrame) == [75])
    }

    @Test func dataTracksBinaryFilesAndTracksWithoutIndexAreLeftOut() throws {
        let text = """
            FILE "data.bin" BINARY
              TRACK 01 MODE1/2352
                INDEX 01 00:00:00
            FILE "audio.wav" WAVE
              TRACK 02 MODE2/2352
                INDEX 01 00:00:00
              TRACK 03 AUDIO
                TITLE "No index"
              TRACK 04 AUDIO
                INDEX 01 00:10:00
              TRACK 05 AUDIO
                INDEX 01 00:xx:00
                INDEX 01 00:20:00
            """
        let cue = try CueSheetParser.parse(Data(text.utf8))
        #expect(cue.tracks.map(\.number) == ["04", "05"])
        #expect(cue.tracks.map(\.startFrame) == [750, 1500], "a time that is not mm:ss:ff is ignored, as mpd ignores it")
    }

    @Test func tracksOfTwoFilesEndWithTheirFile() throws {
        let text = "FILE a.wav WAVE\nTRACK 01 AUDIO\nINDEX 01 00:00:00\nFILE b.wav WAVE\nTRACK 02 AUDIO\nINDEX 01 00:00:00\nTRACK 03 AUDIO\nINDEX 01 00:01:00\n"
        let cue = try CueSheetParser.parse(Data(text.utf8))
        #expect(cue.part(ofTrack: 0, image: "a.wav").endFrame == nil)
        #expect(cue.part(ofTrack: 1, image: "b.wav").endFrame == 75)
    }

    @Test func hostileInputEndsInATypedError() throws {
        #expect(throws: PlaybackError.self) { try CueSheetParser.parse(Data(count: CueSheetParser.maxBytes + 1)) }
        let tooMany = "FILE a.wav WAVE\n" + (0...CueSheetParser.maxTracks).map { "TRACK \($0) AUDIO\nINDEX 01 \($0):00:00\n" }.joined()
        do {
            _ = try CueSheetParser.parse(Data(tooMany.utf8))
            Issue.record("more than 99 tracks were read")
        } catch { #expect(error.code == .malformedData) }
        let backwards = "FILE a.wav WAVE\nTRACK 01 AUDIO\nINDEX 01 00:05:00\nTRACK 02 AUDIO\nINDEX 01 00:01:00\n"
        do {
            _ = try CueSheetParser.parse(Data(backwards.utf8))
            Issue.record("tracks out of order were read")
        } catch { #expect(error.code == .malformedData) }
        // Nothing of a cue sheet, a lone quote, controls, a huge time, NULs: no tracks, no crash.
        for text in ["", "\"", "TITLE \"unterminated\nFILE", "TRACK", "INDEX 01 00:00:00", "FILE \"a\u{0}b\" WAVE\nTRACK 01 AUDIO\nINDEX 01 99999999:00:00\n",
                     "TITLE \"\u{1B}[31mred\u{202E}\"", String(repeating: "REM ", count: 10_000)] {
            let cue = try CueSheetParser.parse(Data(text.utf8))
            #expect(cue.tracks.isEmpty, "\(text.prefix(40))")
            #expect(!(cue.disc.title ?? "").contains("\u{1B}") && !(cue.disc.title ?? "").contains("\u{202E}"))
        }
        let long = "TITLE \"" + String(repeating: "x", count: 100_000) + "\""
        #expect(try CueSheetParser.parse(Data(long.utf8)).disc.title?.count ?? 0 <= CueSheetParser.maxValueLength)
    }
}
