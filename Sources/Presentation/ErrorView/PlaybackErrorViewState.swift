import Foundation
import PlayerCore

/// The error view of the expanded player: it replaces artwork and controls while `failed`.
public struct PlaybackErrorViewState: Sendable, Hashable, Codable {
    public static let accessibilityIdentifier = "ExpandedPlayer.ErrorView"

    /// The large warning icon (red in every front end).
    public let icon: Icon
    /// The icon's spoken label, "Error".
    public let iconLabel: String
    /// "Playback Error" / "Ошибка воспроизведения".
    public let title: String
    /// `error.message(in:)`.
    public let message: String
    public let recoverySuggestion: String
    /// Present only when the failure is recoverable and the state accepts `.retry`.
    public let retry: RetryButtonState?
    /// What failed: episode and podcast titles, or track and station.
    public let context: [ErrorContextLine]
    public let accessibilityIdentifier: String
    /// The VoiceOver / plain-mode sentence: "Playback Error. <message>. <context>." plus
    /// " Retry Playback button available." when Retry is there.
    public let spokenText: String
    /// `spokenText` without the Retry button hint, for front ends that name their own way to
    /// retry ("press r").
    public let spokenDescription: String
    /// The error itself, for front ends that log or map codes.
    public let error: PlaybackError

    /// The bare context titles, in order (the view shows them under the message).
    public var contextLines: [String] { context.map(\.value) }
    public var isRecoverable: Bool { retry != nil }

    /// Built only for `failed`; nil for every other state, so the view clears as soon as a new
    /// track or episode starts. Retry needs `recoverable` AND `state.allows(.retry)` (which also
    /// needs the resume point), so the button never offers what the machine would refuse.
    public init?(state: PlayerState, context: PlaybackContext) {
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
