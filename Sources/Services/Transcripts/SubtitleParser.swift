import Foundation
import PlayerCore

/// WebVTT and SRT cues, read leniently: both are blocks separated by blank lines, each with an
/// optional identifier line, a timing line (`CueTiming`) and lines of text. What is not a cue is
/// skipped: WebVTT's header, `NOTE`, `STYLE` and `REGION` blocks; SRT's numbers; a block whose
/// timing cannot be read. Podcasts label one format as the other often enough that the two are
/// read by the same code; WebVTT's voice spans (`<v Speaker>`) give each cue its speaker.
enum SubtitleParser {
    static func parse(_ text: String) -> [TranscriptCue] {
        var cues: [TranscriptCue] = []
        // Lines, with CRLF and lone CR as line ends, and the byte-order mark gone.
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let lines = normalised.split(separator: "\n", omittingEmptySubsequences: false)
        var block: [Substring] = []
        for line in lines + [""] {
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                if let cue = cue(from: block) { cues.append(cue) }
                block.removeAll(keepingCapacity: true)
                if cues.count >= Transcript.maxCues { break }
            } else {
                block.append(line.first == "\u{FEFF}" ? line.dropFirst() : line)
            }
        }
        return cues
    }

    /// The cue of one block, nil when it is none. The timing line is the first or the second line
    /// (after an identifier); WebVTT's header and comment blocks never have one there, except a
    /// header immediately followed by a cue without a blank line, which is read too.
    private static func cue(from block: [Substring]) -> TranscriptCue? {
        guard let timingIndex = block.prefix(3).firstIndex(where: { $0.contains("-->") }),
            let (start, end) = CueTiming.parse(block[timingIndex])
        else { return nil }
        if timingIndex > 0, isCommentBlock(block[0]) { return nil }
        let textLines = block[(timingIndex + 1)...]
        guard !textLines.isEmpty else { return nil }
        let joined = textLines.joined(separator: " ")[...]
        return TranscriptCue(start: start, end: end, text: CueText.plain(joined), speaker: CueText.voice(in: joined))
    }

    private static func isCommentBlock(_ first: Substring) -> Bool {
        first.hasPrefix("NOTE") || first.hasPrefix("STYLE") || first.hasPrefix("REGION")
    }
}
