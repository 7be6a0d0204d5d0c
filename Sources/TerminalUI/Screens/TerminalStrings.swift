import PlayerCore

/// The few texts only the terminal front end shows; everything else comes from Presentation.
enum TerminalStrings {
    enum Key {
        case nowPlaying, help, quit, dismiss, keys
    }

    static func text(_ key: Key, in language: Language) -> String {
        switch (key, language) {
        case (.nowPlaying, .english): "Now Playing"
        case (.nowPlaying, .russian): "Сейчас играет"
        case (.help, .english): "Help"
        case (.help, .russian): "Справка"
        case (.quit, .english): "Quit"
        case (.quit, .russian): "Выход"
        case (.dismiss, .english): "Dismiss"
        case (.dismiss, .russian): "Скрыть"
        case (.keys, .english): "Keys"
        case (.keys, .russian): "Клавиши"
        }
    }

    /// Plain mode's retry hint: "Retry available: press r."
    static func retryAvailable(key: String, in language: Language) -> String {
        switch language {
        case .english: "Retry available: press \(key)."
        case .russian: "Можно повторить: нажмите \(key)."
        }
    }
}
