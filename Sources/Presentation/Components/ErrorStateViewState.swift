import PlayerCore

/// The full-screen error state with a retry: "Something Went Wrong", the error's message
/// and "Try Again".
package struct ErrorStateViewState: Sendable, Hashable, Codable {
    package let icon: Icon
    package let title: String
    package let message: String
    package let recoverySuggestion: String
    package let retryTitle: String
    package let retryIcon: Icon
    package let error: PlaybackError

    package init(error: PlaybackError, language: Language) {
        icon = .warning
        title = UIStrings.text(.errorStateTitle, in: language)
        let text = error.text(in: language)
        message = text.message
        recoverySuggestion = text.recoverySuggestion
        retryTitle = UIStrings.text(.tryAgain, in: language)
        retryIcon = .retry
        self.error = error
    }

    /// "Something Went Wrong. <message>. Try Again."
    package var spokenText: String { Sentences.join([title, message, retryTitle]) }
}
