import Foundation
import PlayerCore

/// A transcript as `tonearm podcast transcript` prints it: a line per cue, its start first
/// (`[12:34] Alice: Welcome back.`); an untimed transcript's paragraphs without times, a blank
/// line between them.
package enum TranscriptListing {
    package static func text(_ transcript: Transcript) -> String {
        guard transcript.timed else { return transcript.cues.map { $0.text + "\n" }.joined(separator: "\n") }
        return transcript.cues.map { cue in
            let speaker = cue.speaker.map { "\($0): " } ?? ""
            return "[\(TimeText.clock(cue.start))] \(speaker)\(cue.text)\n"
        }.joined()
    }
}
