import PlayerCore

/// The error alert: a small dialog for a failed operation that is not playback (adding a
/// station or a feed, an import, a database problem): title, message, recovery suggestion, OK.
public struct ErrorAlertViewState: Sendable, Hashable, Codable {
    public let icon: Icon
    public let title: String
    public let message: String
    public let recoverySuggestion: String
    /// "OK".
    public let dismissTitle: String
    public let error: PlaybackError

    /// - Parameter operation: what failed; it chooses the wording (a feed that could not be
    ///   fetched is not described as playback).
    public init(error: PlaybackError, language: Language, operation: ErrorOperation = .playback) {
        let text = error.text(in: language, for: operation)
        icon = .warning
        title = text.title
        message = text.message
        recoverySuggestion = text.recoverySuggestion
        dismissTitle = UIStrings.text(.ok, in: language)
        self.error = error
    }
}
