import Foundation
import PlayerCore

/// The error view of the expanded player: it replaces artwork and controls while `failed`.
package struct PlaybackErrorViewState: Sendable, Hashable, Codable {
    package static let accessibilityIdentifier = "ExpandedPlayer.ErrorView"

    /// The large warning icon (red in every front end).
    package let icon: Icon
    /// The icon's spoken label, "Error".
    package let iconLabel: String
    /// "Playback Error" / "Ошибка воспроизведения".
    package let title: String
    /// `error.message(in:)`.
    package let message: String
    package let recoverySuggestion: String
    /// Present only when the failure is recoverable and the state accepts `.retry`.
    package let retry: RetryButtonState?
    /// What failed: episode and podcast titles, or track and station.
    package let context: [ErrorContextLine]
    package let accessibilityIdentifier: String
    /// The VoiceOver / plain-mode sentence: "Playback Error. <message>. <context>." plus
    /// " Retry Playback button available." when Retry is there.
    package let spokenText: String
    /// `spokenText` without the Retry button hint, for front ends that name their own way to
    /// retry ("press r").
    package let spokenDescription: String
    /// The error itself, for front ends that log or map codes.
    package let error: PlaybackError

    /// The bare context titles, in order (the view shows them under the message).
    package var contextLines: [String] { context.map(\.value) }
    package var isRecoverable: Bool { retry != nil }

    /// Built only for `failed`; nil for every other state, so the view clears as soon as a new
    /// track or episode starts. Retry needs `recoverable` AND `state.allows(.retry)` (which also
    /// needs the resume point), so the button never offers what the machine would refuse.
    package init?(state: PlayerState, context: PlaybackContext) {
        guard case .failed(let error, let recoverable, let resumePoint) = state else { return nil }
        let language = context.language
        let text = error.text(in: language)
        self.icon = .warning
        self.iconLabel = UIStrings.text(.errorIconLabel, in: language)
        self.title = UIStrings.text(.playbackErrorTitle, in: language)
        self.message = text.message
        self.recoverySuggestion = text.recoverySuggestion
        self.retry = recoverable && state.allows(.retry) ? RetryButtonState(resumePoint: resumePoint, language: language) : nil
        self.context = ErrorContextLine.lines(for: state.currentTrack, context: context)
        self.accessibilityIdentifier = Self.accessibilityIdentifier
        self.error = error
        spokenDescription = Sentences.join([title, message] + self.context.map(\.labelled))
        var spoken = spokenDescription
        if retry != nil { spoken += " " + UIStrings.text(.retryHintSpoken, in: language) }
        self.spokenText = spoken
    }
}
