import PlayerCore

/// The inline error: a small message line for non-fatal problems (artwork failed, metadata
/// down), optionally dismissable.
public struct InlineErrorViewState: Sendable, Hashable, Codable {
    public let icon: Icon
    public let message: String
    public let isDismissable: Bool
    /// "Dismiss", when dismissable.
    public let dismissTitle: String?

    public init(message: String, isDismissable: Bool = true, language: Language) {
        icon = .inlineError
        self.message = TextSanitizer.singleLine(message)
        self.isDismissable = isDismissable
        dismissTitle = isDismissable ? UIStrings.text(.dismiss, in: language) : nil
    }

    public init(error: PlaybackError, isDismissable: Bool = true, language: Language) {
        self.init(message: error.message(in: language), isDismissable: isDismissable, language: language)
    }

    /// The state after the user dismisses it: gone when dismissable, unchanged otherwise.
    public func dismissed() -> InlineErrorViewState? { isDismissable ? nil : self }
}
