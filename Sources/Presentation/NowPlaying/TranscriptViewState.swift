import Foundation
import PlayerCore

/// The transcript pane of Now Playing (`t`), which shows a song's lyrics the same way: a row per
/// line with its time and speaker, the line being spoken (or sung) marked, and the listener's own
/// choice of line (moved with the arrows, Enter seeks there). Nil for an item without a transcript.
package struct TranscriptViewState: Sendable, Hashable, Codable {
    package struct Row: Sendable, Hashable, Codable {
        /// "12:34", where the line starts; nil in an untimed transcript.
        package let start: String?
        package let speaker: String?
        package let text: String
        /// The line being spoken.
        package let isCurrent: Bool
        /// The line the listener moved to (Enter seeks to it).
        package let isSelected: Bool
    }

    /// "Transcript", or "Lyrics" for a song's lyrics.
    package let heading: String
    /// Said under the heading of lyrics without times ("not synced"): they are shown whole and
    /// no line follows the song. Nil otherwise.
    package let note: String?
    package let rows: [Row]
    /// The row to keep in view: the listener's choice while there is one, else the line spoken.
    package let focusIndex: Int?

    package init?(transcript: Transcript?, current: TranscriptCuePosition?, selection: Int?, language: Language) {
        guard let transcript, !transcript.isEmpty else { return nil }
        // A cue told for an earlier transcript (the item just changed) is not this one's.
        let current = current.flatMap { $0.index < transcript.cues.count && transcript.cues[$0.index] == $0.cue ? $0.index : nil }
        let selection = selection.flatMap { transcript.cues.indices.contains($0) ? $0 : nil }
        heading = Texts.string(transcript.lyrics == nil ? UIString.transcript : .lyrics, in: language)
        note = transcript.lyrics != nil && !transcript.timed ? Texts.string(UIString.lyricsNotSynced, in: language) : nil
        focusIndex = selection ?? current
        rows = transcript.cues.enumerated().map { index, cue in
            Row(
                start: transcript.timed ? TimeText.clock(cue.start) : nil, speaker: cue.speaker, text: cue.text, isCurrent: index == current,
                isSelected: index == selection)
        }
    }
}
