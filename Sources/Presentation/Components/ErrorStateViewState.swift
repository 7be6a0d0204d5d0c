import PlayerCore

/// The full-screen error state with a retry: "Something Went Wrong", the error's message
/// and "Try Again".
public struct ErrorStateViewState: Sendable, Hashable, Codable {
    public let icon: Icon
    public let title: String
    public let message: String
    public let recoverySuggestion: String
    public let retryTitle: String
    public let retryIcon: Icon
    public let error: PlaybackError

    public init(error: PlaybackError, language: Language) {
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
    public var spokenText: String { Sentences.join([title, message, retryTitle]) }
}
