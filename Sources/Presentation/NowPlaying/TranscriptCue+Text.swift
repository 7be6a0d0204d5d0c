import PlayerCore

extension TranscriptCue {
    /// The cue as a line to read: "Alice: Welcome back.", or the text alone without a speaker.
    package var lineText: String { speaker.map { "\($0): \(text)" } ?? text }
}
