/// The three texts a person sees for an error: title, message, recovery suggestion.
public struct LocalizedErrorText: Sendable, Hashable, Codable {
    public let title: String
    public let message: String
    public let recoverySuggestion: String

    public init(title: String, message: String, recoverySuggestion: String) {
        self.title = title
        self.message = message
        self.recoverySuggestion = recoverySuggestion
    }
}

extension PlaybackError {
    /// Title, message and suggestion in `language`, worded for playback.
    public func text(in language: Language) -> LocalizedErrorText { ErrorTexts.text(for: self, in: language) }

    /// Title, message and suggestion in `language`, worded for what failed: a dropped connection
    /// while fetching a feed must not talk about playback or promise a reconnect nobody makes.
    public func text(in language: Language, for operation: ErrorOperation) -> LocalizedErrorText {
        ErrorTexts.text(for: self, in: language, operation: operation)
    }

    public func title(in language: Language) -> String { text(in: language).title }
    public func message(in language: Language) -> String { text(in: language).message }
    public func recoverySuggestion(in language: Language) -> String { text(in: language).recoverySuggestion }

    /// In the process's language (`LC_ALL`/`LC_MESSAGES`/`LANG`).
    public var title: String { title(in: .current) }
    public var message: String { message(in: .current) }
    public var recoverySuggestion: String { recoverySuggestion(in: .current) }
}
