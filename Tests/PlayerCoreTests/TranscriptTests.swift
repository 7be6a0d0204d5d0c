import Foundation
import Testing

@testable import PlayerCore

/// Which cue is spoken at a position: found by binary search, between cues none, overlapping cues
/// the latest started; and what a transcript keeps of hostile input.
@Suite("Transcript")
struct TranscriptTests {
    static func cue(_ start: Double, _ end: Double, _ text: String = "line") -> TranscriptCue {
        TranscriptCue(start: start, end: end, text: text)!
    }

    @Test func theCueSpokenAtAPosition() {
        let transcript = Transcript(cues: [Self.cue(5, 7, "c"), Self.cue(0, 2, "a"), Self.cue(2, 4, "b"), Self.cue(6, 9, "d")])
        #expect(transcript.cues.map(\.text) == ["a", "b", "c", "d"])
        let expected: [(Double, Int?)] = [(-1, nil), (0, 0), (1.99, 0), (2, 1), (4.5, nil), (5, 2), (6.5, 3), (8.9, 3), (9, nil), (.nan, nil)]
        for (position, index) in expected {
            #expect(transcript.index(at: position) == index, "at \(position)")
        }
    }

    @Test func whatIsKeptOfHostileInput() {
        #expect(TranscriptCue(start: .infinity, end: 1, text: "x") == nil)
        #expect(TranscriptCue(start: -1, end: 1, text: "x") == nil)
        #expect(TranscriptCue(start: 0, end: 1, text: " \u{7}\n ") == nil)
        let backwards = TranscriptCue(start: 5, end: 1, text: "a\nb", speaker: "Eve\u{1B}[31m")
        #expect(backwards?.end == 5)
        #expect(backwards?.text == "a b")
        #expect(backwards?.speaker?.contains("\u{1B}") == false)
        let long = TranscriptCue(start: 0, end: 1, text: String(repeating: "w", count: 10_000))
        #expect((long?.text.count ?? 0) <= Transcript.maxCueLength)
        let many = Transcript(cues: (0..<(Transcript.maxCues + 10)).map { Self.cue(Double($0), Double($0) + 1) })
        #expect(many.cues.count == Transcript.maxCues)
    }
}
