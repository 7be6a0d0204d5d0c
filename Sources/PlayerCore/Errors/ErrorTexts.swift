/// Temporary: replaced by the full English/Russian table.
enum ErrorTexts {
    static func text(for error: PlaybackError, in language: Language) -> LocalizedErrorText {
        LocalizedErrorText(title: "Playback Error", message: "Something went wrong.", recoverySuggestion: "Try again.")
    }
}
