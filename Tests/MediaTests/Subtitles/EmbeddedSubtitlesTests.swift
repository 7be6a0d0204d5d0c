import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

/// A file's own text subtitle track read as its transcript, from files the `ffmpeg` tool makes:
/// Matroska with SRT and with ASS (speaker names from the event's `Name`), MP4 timed text; a file
/// without a text track has none.
@Suite("Embedded subtitle tracks")
struct EmbeddedSubtitlesTests {
    /// A 4 s tone with the subtitle file `subtitles` (named `subtitleName`) muxed in as `codec`,
    /// written to a temporary file named `fileName`.
    static func file(_ subtitles: String, subtitleName: String, codec: String, audio: String = "flac", fileName: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-subs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let input = directory.appendingPathComponent(subtitleName)
        try subtitles.write(to: input, atomically: true, encoding: .utf8)
        let data = try FFmpegFixture.make(
            ["-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-i", input.path, "-map", "0:a", "-map", "1:s", "-c:a", audio, "-c:s", codec],
            fileName: fileName
        ).get()
        let output = directory.appendingPathComponent(fileName)
        try data.write(to: output)
        return output
    }

    static let srt = """
        1
        00:00:00,500 --> 00:00:01,250
        <i>Hello</i>, and welcome.

        2
        00:00:02,000 --> 00:00:03,000
        Second line,
        on two rows.

        """

    @Test func aMatroskaSRTTrackIsTheTranscriptWithItsTimes() throws {
        let url = try Self.file(Self.srt, subtitleName: "in.srt", codec: "srt", fileName: "talk.mkv")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let transcript = try #require(EmbeddedSubtitles.transcript(of: url))
        #expect(transcript.timed)
        #expect(transcript.cues.map(\.text) == ["Hello, and welcome.", "Second line, on two rows."])
        #expect(abs(transcript.cues[0].start - 0.5) < 0.01 && abs(transcript.cues[0].end - 1.25) < 0.01, "\(transcript.cues[0])")
        #expect(abs(transcript.cues[1].start - 2) < 0.01 && abs(transcript.cues[1].end - 3) < 0.01, "\(transcript.cues[1])")
        #expect(transcript.current(at: 2.5)?.index == 1)
    }

    @Test func anASSTrackNamesItsSpeakersAndLosesItsMarkup() throws {
        let ass = """
            [Script Info]
            ScriptType: v4.00+

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:00.40,0:00:01.40,Default,Алиса,0,0,0,,{\\i1}Привет{\\i0}, мир
            Dialogue: 0,0:00:02.00,0:00:03.50,Default,,0,0,0,,One, two,\\Nthree

            """
        let url = try Self.file(ass, subtitleName: "in.ass", codec: "ass", fileName: "talk.mkv")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let transcript = try #require(EmbeddedSubtitles.transcript(of: url))
        #expect(transcript.cues.map(\.text) == ["Привет, мир", "One, two, three"])
        #expect(transcript.cues.map(\.speaker) == ["Алиса", nil])
        #expect(abs(transcript.cues[1].start - 2) < 0.01 && abs(transcript.cues[1].end - 3.5) < 0.01, "\(transcript.cues[1])")
    }

    @Test func anMP4TimedTextTrackIsReadToo() throws {
        let url = try Self.file(Self.srt, subtitleName: "in.srt", codec: "mov_text", audio: "aac", fileName: "talk.m4a")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let transcript = try #require(EmbeddedSubtitles.transcript(of: url))
        #expect(transcript.cues.map(\.text) == ["Hello, and welcome.", "Second line, on two rows."])
        #expect(abs(transcript.cues[0].start - 0.5) < 0.01)
    }

    @Test func aFileWithoutATextTrackOrNoFileAtAllHasNone() throws {
        let data = try FFmpegFixture.make(["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "flac"], fileName: "plain.mkv").get()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-plain-\(UUID().uuidString).mkv")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(EmbeddedSubtitles.transcript(of: url) == nil)
        #expect(EmbeddedSubtitles.transcript(of: url.appendingPathExtension("missing")) == nil)
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-garbage-\(UUID().uuidString).mkv")
        try Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: garbage)
        defer { try? FileManager.default.removeItem(at: garbage) }
        #expect(EmbeddedSubtitles.transcript(of: garbage) == nil)
        #expect(EmbeddedSubtitles.transcript(of: URL(string: "https://example.org/talk.mkv")!) == nil)
    }

    @Test func anASSEventKeepsCommasInItsTextAndNeedsAllItsFields() {
        let event = EmbeddedSubtitles.assEvent("3,0,Default,Bob,0,0,0,,Well, yes, {\\b1}quite{\\b0}.")
        #expect(event?.speaker == "Bob")
        #expect(event?.text == "Well, yes, quite.")
        #expect(EmbeddedSubtitles.assEvent("3,0,Default,,0,0,0,,")?.text == "")
        #expect(EmbeddedSubtitles.assEvent("3,0,Default,,0,0,0")  == nil, "eight fields: no text field")
    }

    @Test func assMarkupBecomesPlainText() {
        #expect(EmbeddedSubtitles.plainText("one\\Ntwo\\nthree\\hfour") == "one two three four")
        #expect(EmbeddedSubtitles.plainText("{\\pos(10,20)\\c&H00FF00&}green") == "green")
        #expect(EmbeddedSubtitles.plainText("a back\\slash stays\\") == "a back\\slash stays\\")
        #expect(EmbeddedSubtitles.plainText("{unclosed") == "")
    }
}
