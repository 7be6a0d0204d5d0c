import Foundation
import PlayerCore
import Testing

@testable import Services

/// Every transcript format podcasts publish, read into cues as a listener reads them; what is no
/// transcript is a typed error, never a crash.
@Suite("Transcript documents")
struct TranscriptDocumentTests {
    static func parse(_ text: String, _ format: TranscriptFormat) throws -> Transcript {
        try TranscriptDocument.parse(Data(text.utf8), format: format)
    }

    @Test func webVTTWithSpeakersNotesStylesAndReferences() throws {
        let vtt = """
            WEBVTT - an episode

            STYLE
            ::cue { color: yellow }

            NOTE this is not said
            by anyone

            intro
            00:00.000 --> 00:02.500 align:start position:10%
            <v Alice>Welcome to the <i>show</i> &amp; its guests.

            00:02.500 --> 00:05.000
            <v.loud Bob Smith>Thanks,
            Alice!</v>

            01:00:01.250 --> 01:00:03.000
            Later &lt;on&gt;&#x1F600;
            """
        let transcript = try Self.parse(vtt, .webVTT)
        #expect(transcript.timed)
        #expect(transcript.cues.map(\.text) == ["Welcome to the show & its guests.", "Thanks, Alice!", "Later <on>😀"])
        #expect(transcript.cues.map(\.speaker) == ["Alice", "Bob Smith", nil])
        #expect(transcript.cues.map(\.start) == [0, 2.5, 3601.25])
        #expect(transcript.cues.map(\.end) == [2.5, 5, 3603])
    }

    @Test func srtWithCRLFAByteOrderMarkAndTags() throws {
        let srt = "\u{FEFF}1\r\n00:00:01,000 --> 00:00:04,000\r\n<i>Hello</i> there\r\n\r\n2\r\n00:00:04,500 --> 00:00:06,000 X1:0 X2:10\r\nSecond <font color=\"red\">line</font>\r\n\r\n"
        let transcript = try Self.parse(srt, .srt)
        #expect(transcript.cues.map(\.text) == ["Hello there", "Second line"])
        #expect(transcript.cues.map(\.start) == [1, 4.5])
        // Labelled WebVTT, written as SRT: read all the same.
        #expect(try Self.parse(srt, .webVTT).cues.count == 2)
    }

    @Test func aTimingLineOfJunkIsNoCue() throws {
        for junk in ["00:00:01,000 --> inf", "1e9 --> 2e9", "00:61.000 --> 00:62.000", "-00:01.000 --> 00:02.000", "00:00:01.0000 --> 00:00:02.000", "a:b --> c:d"] {
            #expect(CueTiming.parse(junk[...]) == nil, "\(junk)")
        }
        #expect(CueTiming.seconds("100:00:00.5") == 360_000.5)
        #expect(CueTiming.seconds("00:01") == 1)
        let noCue = "WEBVTT\n\nNOTE nothing\n"
        #expect(throws: PlaybackError.self) { try Self.parse(noCue, .webVTT) }
    }

    @Test func jsonWordsJoinIntoLinesBySpeakerPauseAndSentence() throws {
        let json = """
            {"version": "1.0.0", "segments": [
              {"speaker": "Alice", "startTime": 0.0, "endTime": 0.4, "body": "Hello"},
              {"speaker": "Alice", "startTime": 0.4, "endTime": 0.9, "body": "everyone."},
              {"speaker": "Alice", "startTime": 1.0, "endTime": 1.3, "body": "Today"},
              {"speaker": "Bob", "startTime": 1.4, "endTime": 1.8, "body": "Hi"},
              {"speaker": "Bob", "startTime": "4.0", "endTime": "4.5", "body": "later"},
              {"speaker": "Bob", "startTime": "nope", "body": "dropped"},
              {"startTime": 5, "endTime": 5.5, "body": "   "}
            ]}
            """
        let transcript = try Self.parse(json, .json)
        #expect(transcript.cues.map(\.text) == ["Hello everyone.", "Today", "Hi", "later"])
        #expect(transcript.cues.map(\.speaker) == ["Alice", "Alice", "Bob", "Bob"])
        #expect(transcript.cues.map(\.end) == [0.9, 1.3, 1.8, 4.5])
        #expect(throws: PlaybackError.self) { try Self.parse(#"{"chapters": []}"#, .json) }
        #expect(throws: PlaybackError.self) { try Self.parse("not json", .json) }
    }

    @Test func htmlIsItsParagraphsWithoutTimes() throws {
        let html = """
            <html><head><title>Episode 5</title><style>p { color: red }</style><script>var x = "<p>no</p>";</script></head>
            <body><h1>Transcript</h1><p>First   paragraph,<br>with a break &amp; a <b>bold</b> word.</p>
            <div>Приветствую, слушатели!</div></body></html>
            """
        let transcript = try Self.parse(html, .html)
        #expect(!transcript.timed)
        #expect(transcript.cues.map(\.text) == ["Episode 5", "Transcript", "First paragraph,", "with a break & a bold word.", "Приветствую, слушатели!"])
        #expect(transcript.index(at: 0) == nil, "an untimed transcript follows nothing")
    }

    @Test func aDocumentTooLargeIsRefusedBeforeItIsRead() {
        let big = Data(repeating: 0x41, count: 1_001)
        #expect(throws: PlaybackError.self) { try TranscriptDocument.parse(big, format: .webVTT, maxBytes: 1_000) }
        do {
            _ = try TranscriptDocument.parse(big, format: .webVTT, maxBytes: 1_000)
        } catch {
            #expect(error.code == .documentTooLarge)
        }
    }

    @Test func theFormatComesFromTheTypeOrTheName() {
        #expect(TranscriptFormat(mimeType: "text/vtt; charset=utf-8") == .webVTT)
        #expect(TranscriptFormat(mimeType: "application/x-subrip") == .srt)
        #expect(TranscriptFormat(mimeType: "application/json") == .json)
        #expect(TranscriptFormat(mimeType: "text/html") == .html)
        #expect(TranscriptFormat(mimeType: "audio/mpeg") == nil)
        #expect(TranscriptFormat(pathExtension: "SRT") == .srt)
        #expect([TranscriptFormat.html, .json, .srt, .webVTT].sorted() == [.webVTT, .srt, .json, .html])
    }
}
