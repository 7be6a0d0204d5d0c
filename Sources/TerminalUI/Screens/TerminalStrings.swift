import PlayerCore

/// The few texts only the terminal front end shows; everything else comes from Presentation.
enum TerminalStrings {
    enum Key {
        case nowPlaying, help, quit, dismiss, keys, move, nextTab, open, add, search
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
        case (.move, .english): "Move"
        case (.move, .russian): "Выбор"
        case (.nextTab, .english): "Next tab"
        case (.nextTab, .russian): "Вкладка"
        case (.open, .english): "Open"
        case (.open, .russian): "Открыть"
        case (.add, .english): "Add"
        case (.add, .russian): "Добавить"
        case (.search, .english): "Search"
        case (.search, .russian): "Поиск"
        }
    }

    static func tab(_ tab: LibraryScreen.Tab, in language: Language) -> String {
        switch (tab, language) {
        case (.stations, .english): "Stations"
        case (.stations, .russian): "Станции"
        case (.podcasts, .english): "Podcasts"
        case (.podcasts, .russian): "Подкасты"
        case (.sessions, .english): "Sessions"
        case (.sessions, .russian): "Сессии"
        case (.diagnostics, .english): "Diagnostics"
        case (.diagnostics, .russian): "Диагностика"
        }
    }

    enum Diagnostics {
        case total, last24Hours, last7Days, retryable, successRate, topTypes, topOperations
    }

    /// Labels of seed 004's summary on the Diagnostics screen.
    static func diagnostics(_ key: Diagnostics, in language: Language) -> String {
        switch (key, language) {
        case (.total, .english): "Errors"
        case (.total, .russian): "Ошибок"
        case (.last24Hours, .english): "last 24 h"
        case (.last24Hours, .russian): "за 24 ч"
        case (.last7Days, .english): "last 7 days"
        case (.last7Days, .russian): "за 7 дней"
        case (.retryable, .english): "Retryable"
        case (.retryable, .russian): "Повторяемых"
        case (.successRate, .english): "Retry success rate"
        case (.successRate, .russian): "Успешных повторов"
        case (.topTypes, .english): "Top error types"
        case (.topTypes, .russian): "Частые ошибки"
        case (.topOperations, .english): "By operation"
        case (.topOperations, .russian): "По операциям"
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
