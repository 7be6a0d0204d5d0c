import PlayerCore

/// The inline error: a small message line for non-fatal problems (artwork failed, metadata
/// down), optionally dismissable.
package struct InlineErrorViewState: Sendable, Hashable, Codable {
    package let icon: Icon
    package let message: String
    package let isDismissable: Bool
    /// "Dismiss", when dismissable.
    package let dismissTitle: String?

    package init(message: String, isDismissable: Bool = true, language: Language) {
        icon = .inlineError
        self.message = TextSanitizer.singleLine(message)
        self.isDismissable = isDismissable
        dismissTitle = isDismissable ? UIStrings.text(.dismiss, in: language) : nil
    }

    package init(error: PlaybackError, isDismissable: Bool = true, language: Language) {
        self.init(message: error.message(in: language), isDismissable: isDismissable, language: language)
    }

    /// The state after the user dismisses it: gone when dismissable, unchanged otherwise.
    package func dismissed() -> InlineErrorViewState? { isDismissable ? nil : self }
}
