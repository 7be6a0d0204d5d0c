import PlayerCore
import Presentation

/// The few texts only the terminal front end shows, as typed keys of Presentation's text
/// catalogs (`terminal.…`); everything else comes from Presentation's own keys.
package enum TerminalStrings {
    enum Key: String, TextKey {
        case nowPlaying, help, quit, dismiss, keys, move, nextTab, open, add, search, find, addToLibrary, like, download, enqueue, takeOff, yes, no,
            timer, updateIndex

        var catalogKey: String { "terminal.\(rawValue)" }
    }

    static func text(_ key: Key, in language: Language) -> String {
        Texts.string(key, in: language)
    }

    static func tab(_ tab: LibraryScreen.Tab, in language: Language) -> String {
        let name: String
        switch tab {
        case .stations: name = "stations"
        case .podcasts: name = "podcasts"
        case .queue: name = "queue"
        case .sessions: name = "sessions"
        case .history: name = "history"
        case .favourites: name = "favourites"
        case .diagnostics: name = "diagnostics"
        case .music: name = "music"
        }
        return Texts.string("terminal.tab.\(name)", in: language)
    }

    enum Diagnostics: String, TextKey {
        case total, last24Hours, last7Days, retryable, resolvedByRetry, successRate, nothingRetried, topTypes, topOperations,
            retriesByOperation

        var catalogKey: String { "terminal.diagnostics.\(rawValue)" }
    }

    /// Labels of the error analytics summary on the Diagnostics screen.
    static func diagnostics(_ key: Diagnostics, in language: Language) -> String {
        Texts.string(key, in: language)
    }

    /// "of 12 retried operations": a counted text, one catalog key per plural form.
    static func retriedOperations(_ count: Int, in language: Language) -> String {
        Texts.plural("terminal.diagnostics.retriedOperations", count: count, in: language)
    }

    /// Plain mode's retry hint: "Retry available: press r."
    static func retryAvailable(key: String, in language: Language) -> String {
        Texts.format("terminal.retryAvailable", in: language, key)
    }

    package enum Prompt: String, Sendable, TextKey {
        case station, feed, directory, rename, timer

        package var catalogKey: String { "terminal.prompt.\(rawValue)" }
    }

    /// The heading of the directory's results: "Directory: jazz".
    package static func directoryHeading(_ query: String, in language: Language) -> String {
        Texts.format("terminal.directory.heading", in: language, TextSanitizer.singleLine(query, maxLength: 60))
    }

    /// The heading over the library search's hits.
    package static func searchHeading(_ query: String, in language: Language) -> String {
        Texts.format("terminal.search.heading", in: language, TextSanitizer.singleLine(query, maxLength: 60))
    }

    /// The label of the add prompt, or of the directory's search prompt.
    package static func prompt(_ prompt: Prompt, in language: Language) -> String {
        Texts.string(prompt, in: language)
    }

    /// "Remove “Night FM” from the library?"
    package static func confirmRemove(_ name: String, in language: Language) -> String {
        Texts.format("terminal.confirmRemove", in: language, TextSanitizer.singleLine(name, maxLength: 60))
    }

    /// The hint that brings a removal back: "Undo removing Night FM".
    static func undoRemoval(_ name: String, in language: Language) -> String {
        Texts.format("terminal.undoRemoval", in: language, TextSanitizer.singleLine(name, maxLength: 40))
    }

    /// An action's name in the help overlay.
    static func actionName(_ action: KeyAction, in language: Language) -> String {
        Texts.string("terminal.action.\(action.rawValue)", in: language)
    }
}
