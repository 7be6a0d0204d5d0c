import PlayerCore

/// The few texts only the terminal front end shows; everything else comes from Presentation.
public enum TerminalStrings {
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
        case total, last24Hours, last7Days, retryable, resolvedByRetry, successRate, nothingRetried, topTypes, topOperations,
            retriesByOperation
    }

    /// Labels of the error analytics summary on the Diagnostics screen.
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
        case (.resolvedByRetry, .english): "Resolved by a retry"
        case (.resolvedByRetry, .russian): "Устранено повтором"
        case (.successRate, .english): "Retry success rate"
        case (.successRate, .russian): "Успешных повторов"
        case (.nothingRetried, .english): "nothing retried yet"
        case (.nothingRetried, .russian): "повторов ещё не было"
        case (.retriesByOperation, .english): "Retries by operation (recovered/retried)"
        case (.retriesByOperation, .russian): "Повторы по операциям (успешно/всего)"
        case (.topTypes, .english): "Top error types"
        case (.topTypes, .russian): "Частые ошибки"
        case (.topOperations, .english): "By operation"
        case (.topOperations, .russian): "По операциям"
        }
    }

    /// "of 12 retried operations", with the Russian form of «операция» after «из».
    static func retriedOperations(_ count: Int, in language: Language) -> String {
        switch language {
        case .english: return "of \(count) retried \(count == 1 ? "operation" : "operations")"
        case .russian:
            // After «из» the genitive: «из 1 операции», «из 21 операции», otherwise «операций».
            let noun = count % 10 == 1 && count % 100 != 11 ? "операции" : "операций"
            return "из \(count) \(noun) с повторами"
        }
    }

    /// Plain mode's retry hint: "Retry available: press r."
    static func retryAvailable(key: String, in language: Language) -> String {
        switch language {
        case .english: "Retry available: press \(key)."
        case .russian: "Можно повторить: нажмите \(key)."
        }
    }

    public enum Prompt: Sendable { case station, feed }

    /// The add prompt's label.
    public static func prompt(_ prompt: Prompt, in language: Language) -> String {
        switch (prompt, language) {
        case (.station, .english): "New station (name and URL)"
        case (.station, .russian): "Новая станция (название и URL)"
        case (.feed, .english): "Podcast feed URL"
        case (.feed, .russian): "URL ленты подкаста"
        }
    }

    /// An action's name in the help overlay.
    static func actionName(_ action: KeyAction, in language: Language) -> String {
        let english: String
        let russian: String
        switch action {
        case .up: (english, russian) = ("Up", "Вверх")
        case .down: (english, russian) = ("Down", "Вниз")
        case .play: (english, russian) = ("Open or play", "Открыть или играть")
        case .pauseResume: (english, russian) = ("Pause or resume", "Пауза или продолжить")
        case .stop: (english, russian) = ("Stop", "Стоп")
        case .next: (english, russian) = ("Next", "Следующий")
        case .seekBackward: (english, russian) = ("Back 15 s, previous tab", "Назад 15 с, вкладка влево")
        case .seekForward: (english, russian) = ("Forward 30 s, next tab", "Вперёд 30 с, вкладка вправо")
        case .retry: (english, russian) = ("Retry", "Повторить")
        case .dismiss: (english, russian) = ("Dismiss, cancel reconnecting", "Скрыть, отменить переподключение")
        case .add: (english, russian) = ("Add", "Добавить")
        case .search: (english, russian) = ("Search", "Поиск")
        case .help: (english, russian) = ("This help", "Эта справка")
        case .quit: (english, russian) = ("Quit", "Выход")
        }
        return language == .english ? english : russian
    }
}
