import PlayerCore

/// The error alert: a small dialog for a failed operation that is not playback (adding a
/// station or a feed, an import, a database problem): title, message, recovery suggestion, OK.
package struct ErrorAlertViewState: Sendable, Hashable, Codable {
    package let icon: Icon
    package let title: String
    package let message: String
    package let recoverySuggestion: String
    /// "OK".
    package let dismissTitle: String
    package let error: PlaybackError

    /// - Parameter operation: what failed; it chooses the wording (a feed that could not be
    ///   fetched is not described as playback).
    package init(error: PlaybackError, language: Language, operation: ErrorOperation = .playback) {
        let text = error.text(in: language, for: operation)
        icon = .warning
        title = text.title
        message = text.message
        recoverySuggestion = text.recoverySuggestion
        dismissTitle = UIStrings.text(.ok, in: language)
        self.error = error
    }
}
