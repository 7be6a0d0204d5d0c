import Foundation
import Testing

@testable import PlayerCore

/// LRC lyrics as players read them: stamp forms, lines sung more than once, the offset, ID tags,
/// word stamps, encodings and line ends; hostile input ends in a typed error or is ignored, and
/// the line current at a position is the one whose stamp was passed last.
@Suite("Lyrics parser")
struct LyricsParserTests {
    static func parse(_ text: String) throws(PlaybackError) -> Transcript { try LyricsParser.parse(Data(text.utf8)) }

    static func expectCode(_ code: PlaybackError.Code, _ body: () throws(PlaybackError) -> Transcript) {
        do {
            _ = try body()
            Issue.record("expected \(code)")
        } catch {
            #expect(error.code == code, "\(error)")
        }
    }

    @Test func stampFormsAndTheLineCurrentAtAPosition() throws {
        let lyrics = try Self.parse(
            """
            [ar:The Band]
            [ti:The Song]
            [al:The Album]
            [by:someone]
            [00:01.50]First line
            [00:03]Second line
            [00:05:25]Third line
            [00:07.125]Fourth line
            [00:09.5]Fifth line
            [1:02.00]Sixth line
            """)
        #expect(lyrics.timed)
        #expect(lyrics.cues.map(\.text) == ["First line", "Second line", "Third line", "Fourth line", "Fifth line", "Sixth line"])
        #expect(lyrics.cues.map(\.start) == [1.5, 3, 5.25, 7.125, 9.5, 62])
        #expect(lyrics.lyrics == LyricsInfo(origin: .lrcFile, artist: "The Band", title: "The Song", album: "The Album"))
        let expected: [(Double, String?)] = [(0, nil), (1.5, "First line"), (2.99, "First line"), (3, "Second line"), (61.9, "Fifth line"), (62, "Sixth line"), (600, "Sixth line")]
        for (position, text) in expected {
            #expect(lyrics.current(at: position)?.cue.text == text, "at \(position)")
        }
    }

    @Test func aLineWithSeveralStampsIsSungAtEachAndUnsortedStampsAreOrdered() throws {
        let lyrics = try Self.parse(
            """
            [00:20.00]Verse two
            [00:10.00][00:30.00] Chorus
            [00:00.50]Verse one
            """)
        #expect(lyrics.cues.map(\.text) == ["Verse one", "Chorus", "Verse two", "Chorus"])
        #expect(lyrics.cues.map(\.start) == [0.5, 10, 20, 30])
        #expect(lyrics.cues.map(\.end).prefix(3) == [10, 20, 30])
        #expect(lyrics.current(at: 31)?.index == 3)
    }

    @Test func theOffsetMovesEveryStampAndPositiveMeansSooner() throws {
        let sooner = try Self.parse("[offset:+500]\n[00:02.00]A\n[00:04.00]B\n[00:00.20]C")
        #expect(sooner.cues.map(\.start) == [0, 1.5, 3.5], "a stamp moved before 0 stays at 0")
        let later = try Self.parse("[00:02.00]A\n[offset:-250]")
        #expect(later.cues.map(\.start) == [2.25], "the offset applies wherever it stands")
        let nonsense = try Self.parse("[offset:soon]\n[00:02.00]A")
        #expect(nonsense.cues.map(\.start) == [2])
    }

    @Test func anEmptyStampEndsTheLineBeforeAndLengthEndsTheLast() throws {
        let lyrics = try Self.parse("[length: 01:00]\n[00:01.00]Sung\n[00:04.00]\n[00:08.00]Again")
        #expect(lyrics.cues.map(\.text) == ["Sung", "Again"])
        #expect(lyrics.current(at: 3.9)?.cue.text == "Sung")
        #expect(lyrics.current(at: 5) == nil, "the break has no line")
        #expect(lyrics.cues.last?.end == 60)
        let open = try Self.parse("[00:08.00]Last")
        #expect(open.current(at: 3_000)?.cue.text == "Last", "without a length the last line lasts to the song's end")
    }

    @Test func wordStampsAreStrippedAndOtherBracketsKept() throws {
        let lyrics = try Self.parse("[00:01.00]<00:01.00>Hello <00:01.50>wide <00:02.00>world <not a stamp>\n[00:03.00]a [b] c")
        #expect(lyrics.cues.map(\.text) == ["Hello wide world <not a stamp>", "a [b] c"])
    }

    @Test func badStampsAndLinesWithoutOneAreIgnored() throws {
        let lyrics = try Self.parse(
            """
            A line with no stamp
            [00:6x.00]bad seconds
            [00:75.00]seconds of sixty or more
            [-00:01.00]negative
            [00:01.]empty fraction
            [00:01.1234]four fraction digits
            [99999:00.00]a century
            [00:02.00]Good
            [00:03.00
            """)
        #expect(lyrics.cues.map(\.text) == ["Good"])
        Self.expectCode(.malformedData) { () throws(PlaybackError) in try Self.parse("[ar:Only tags]\nplain words\n") }
        Self.expectCode(.malformedData) { () throws(PlaybackError) in try Self.parse("") }
        Self.expectCode(.malformedData) { () throws(PlaybackError) in try Self.parse("[00:01.00]\n[00:02.00] \u{7}") }
    }

    @Test func encodingsAndLineEnds() throws {
        let bom = try LyricsParser.parse(Data([0xEF, 0xBB, 0xBF] + Array("[00:01.00]Ünïcödé\r\n[00:02.00]Два\r\n".utf8)))
        #expect(bom.cues.map(\.text) == ["Ünïcödé", "Два"])
        // "Café" in Latin-1: é is 0xE9, not UTF-8.
        let latin1 = try LyricsParser.parse(Data(Array("[00:01.00]Caf".utf8) + [0xE9] + Array("\r[00:02.00]Fin".utf8)))
        #expect(latin1.cues.map(\.text) == ["Café", "Fin"])
        let utf16 = try LyricsParser.parse("\u{FEFF}[00:01.00]Wide".data(using: .utf16LittleEndian)!)
        #expect(utf16.cues.map(\.text) == ["Wide"])
    }

    @Test func hostileInputEndsInATypedError() {
        Self.expectCode(.documentTooLarge) { () throws(PlaybackError) in
            try LyricsParser.parse(Data(repeating: 0x41, count: LyricsParser.maxBytes + 1))
        }
        Self.expectCode(.documentTooLarge) { () throws(PlaybackError) in
            try LyricsParser.parse(text: String(repeating: "x\n", count: LyricsParser.maxLines) + "[00:01.00]x\n")
        }
        Self.expectCode(.documentTooLarge) { () throws(PlaybackError) in
            try LyricsParser.parse(text: "[00:01.00]" + String(repeating: "la ", count: LyricsParser.maxLineLength))
        }
        Self.expectCode(.documentTooLarge) { () throws(PlaybackError) in
            // 201 lines of 100 stamps: more lines sung than a transcript keeps.
            try LyricsParser.parse(text: String(repeating: String(repeating: "[00:01.00]", count: 100) + "x\n", count: 201))
        }
        // Controls and escapes in a line never reach the screen.
        let lyrics = try? LyricsParser.parse(text: "[00:01.00]red\u{1B}[31m text\u{7}")
        #expect(lyrics?.cues.first?.text.contains("\u{1B}") == false)
    }

    @Test func tagTextIsFollowedWhenItHasStampsElseShownWhole() throws {
        let synced = try #require(LyricsParser.transcript(fromTagText: "[00:01.00]One\n[00:02.00]Two"))
        #expect(synced.timed && synced.lyrics?.origin == .tag)
        let plain = try #require(LyricsParser.transcript(fromTagText: "One\r\n\r\nTwo\n"))
        #expect(!plain.timed)
        #expect(plain.cues.map(\.text) == ["One", "Two"])
        #expect(plain.current(at: 1) == nil, "unsynchronised lyrics are not followed")
        #expect(LyricsParser.transcript(fromTagText: " \n\n ") == nil)
    }

    @Test func lyricsSurviveTheJSONTheLibraryKeepsAndOlderTranscriptsStillDecode() throws {
        let lyrics = try Self.parse("[ar:A]\n[00:01.00]One")
        let back = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(lyrics))
        #expect(back == lyrics)
        let old = try JSONDecoder().decode(Transcript.self, from: Data(#"{"cues":[{"start":1,"end":2,"text":"Hi"}],"timed":true}"#.utf8))
        #expect(old.lyrics == nil && old.cues.count == 1)
    }
}
