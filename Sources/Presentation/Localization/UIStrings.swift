import Foundation
import PlayerCore

/// Every UI string Presentation shows, as a key. Player-state texts come from
/// `PlayerState.statusText`/`displayText` and error texts from `PlaybackError.text(in:)`; this
/// table holds the rest. Templates mark their arguments `{1}`, `{2}`… (see `UIStrings.format`).
public enum UIString: String, Sendable, Hashable, Codable, CaseIterable {
    // The expanded player's error view.
    case playbackErrorTitle
    case errorIconLabel
    case retryPlayback
    case retryHintSpoken
    case retryResumesAt
    case retryRejoinsLive
    case retryStartsOver
    case contextEpisode
    case contextPodcast
    case contextTrack
    case contextStation
    case contextArtist
    // Mini player.
    case miniPlayerFailedRetry
    case miniPlayerFailed
    case nothingPlaying
    // Now playing.
    case unknownTitle
    case live
    case stillConnecting
    case nextUp
    case outgoingDeck
    case incomingDeck
    case bufferFill
    // Controls.
    case controlPlay
    case controlPause
    case controlResume
    case controlStop
    case controlSkip
    case controlSeekBackward
    case controlSeekForward
    case controlRetryNow
    case controlCancelRetry
    case controlRetry
    case controlReset
    // Components.
    case errorStateTitle
    case tryAgain
    case dismiss
    case ok
    case offlineBanner
    case loading
    case emptyStationsTitle
    case emptyStationsMessage
    case emptyStationsAction
    case emptyPodcastsTitle
    case emptyPodcastsMessage
    case emptyPodcastsAction
    case emptyEpisodesTitle
    case emptyEpisodesMessage
    case emptyEpisodesAction
    case emptySessionsTitle
    case emptySessionsMessage
    case emptySessionsAction
    case noResultsTitle
    case noResultsMessage
}

/// The English and Russian tables. Both are exhaustive switches, so a new key does not compile
/// until it has both texts.
public enum UIStrings {
    /// The text of `key` in `language`.
    public static func text(_ key: UIString, in language: Language) -> String {
        switch language {
        case .english: english(key)
        case .russian: russian(key)
        }
    }

    /// The template of `key` with `{1}`, `{2}`… replaced by `arguments`, in one pass (an argument
    /// that itself contains `{2}` is never expanded again).
    public static func format(_ key: UIString, in language: Language, _ arguments: String...) -> String {
        substitute(text(key, in: language), arguments)
    }

    static func substitute(_ template: String, _ arguments: [String]) -> String {
        var out = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"),
                let n = Int(rest[afterOpen..<close]), n >= 1, n <= arguments.count
            {
                out += arguments[n - 1]
                rest = rest[rest.index(after: close)...]
            } else {
                out += "{"
                rest = rest[afterOpen...]
            }
        }
        return out + rest
    }

    private static func english(_ key: UIString) -> String {
        switch key {
        case .playbackErrorTitle: "Playback Error"
        case .errorIconLabel: "Error"
        case .retryPlayback: "Retry Playback"
        case .retryHintSpoken: "Retry Playback button available."
        case .retryResumesAt: "Retry resumes at {1}"
        case .retryRejoinsLive: "Retry rejoins the live broadcast"
        case .retryStartsOver: "Retry starts from the beginning"
        case .contextEpisode: "Episode: {1}"
        case .contextPodcast: "Podcast: {1}"
        case .contextTrack: "Track: {1}"
        case .contextStation: "Station: {1}"
        case .contextArtist: "Artist: {1}"
        case .miniPlayerFailedRetry: "Playback failed — r to retry"
        case .miniPlayerFailed: "Playback failed"
        case .nothingPlaying: "Nothing playing"
        case .unknownTitle: "Unknown title"
        case .live: "LIVE"
        case .stillConnecting: "Still connecting…"
        case .nextUp: "Next: {1}"
        case .outgoingDeck: "Outgoing"
        case .incomingDeck: "Incoming"
        case .bufferFill: "Buffer {1}%"
        case .controlPlay: "Play"
        case .controlPause: "Pause"
        case .controlResume: "Resume"
        case .controlStop: "Stop"
        case .controlSkip: "Next"
        case .controlSeekBackward: "Back {1} s"
        case .controlSeekForward: "Forward {1} s"
        case .controlRetryNow: "Retry now"
        case .controlCancelRetry: "Cancel"
        case .controlRetry: "Retry"
        case .controlReset: "Clear"
        case .errorStateTitle: "Something Went Wrong"
        case .tryAgain: "Try Again"
        case .dismiss: "Dismiss"
        case .ok: "OK"
        case .offlineBanner: "No Internet Connection"
        case .loading: "Loading…"
        case .emptyStationsTitle: "No stations yet"
        case .emptyStationsMessage: "Add an internet radio station to start listening."
        case .emptyStationsAction: "Add Station"
        case .emptyPodcastsTitle: "No podcasts yet"
        case .emptyPodcastsMessage: "Add a podcast feed and its episodes will appear here."
        case .emptyPodcastsAction: "Add Podcast"
        case .emptyEpisodesTitle: "No episodes"
        case .emptyEpisodesMessage: "This podcast has no episodes yet."
        case .emptyEpisodesAction: "Refresh"
        case .emptySessionsTitle: "No sessions yet"
        case .emptySessionsMessage: "Create a session to play a sequence of tracks with crossfades."
        case .emptySessionsAction: "New Session"
        case .noResultsTitle: "No results"
        case .noResultsMessage: "Nothing matches “{1}”."
        }
    }

    private static func russian(_ key: UIString) -> String {
        switch key {
        case .playbackErrorTitle: "Ошибка воспроизведения"
        case .errorIconLabel: "Ошибка"
        case .retryPlayback: "Повторить"
        case .retryHintSpoken: "Доступна кнопка «Повторить»."
        case .retryResumesAt: "Повтор продолжит с {1}"
        case .retryRejoinsLive: "Повтор вернёт к прямому эфиру"
        case .retryStartsOver: "Повтор начнёт сначала"
        case .contextEpisode: "Выпуск: {1}"
        case .contextPodcast: "Подкаст: {1}"
        case .contextTrack: "Трек: {1}"
        case .contextStation: "Станция: {1}"
        case .contextArtist: "Исполнитель: {1}"
        case .miniPlayerFailedRetry: "Ошибка воспроизведения — r для повтора"
        case .miniPlayerFailed: "Ошибка воспроизведения"
        case .nothingPlaying: "Ничего не играет"
        case .unknownTitle: "Без названия"
        case .live: "ЭФИР"
        case .stillConnecting: "Всё ещё подключаемся…"
        case .nextUp: "Далее: {1}"
        case .outgoingDeck: "Уходящий"
        case .incomingDeck: "Входящий"
        case .bufferFill: "Буфер {1}%"
        case .controlPlay: "Играть"
        case .controlPause: "Пауза"
        case .controlResume: "Продолжить"
        case .controlStop: "Стоп"
        case .controlSkip: "Далее"
        case .controlSeekBackward: "Назад {1} с"
        case .controlSeekForward: "Вперёд {1} с"
        case .controlRetryNow: "Повторить сейчас"
        case .controlCancelRetry: "Отмена"
        case .controlRetry: "Повторить"
        case .controlReset: "Очистить"
        case .errorStateTitle: "Что-то пошло не так"
        case .tryAgain: "Попробовать снова"
        case .dismiss: "Закрыть"
        case .ok: "ОК"
        case .offlineBanner: "Нет подключения к интернету"
        case .loading: "Загрузка…"
        case .emptyStationsTitle: "Станций пока нет"
        case .emptyStationsMessage: "Добавьте интернет-радиостанцию, чтобы начать слушать."
        case .emptyStationsAction: "Добавить станцию"
        case .emptyPodcastsTitle: "Подкастов пока нет"
        case .emptyPodcastsMessage: "Добавьте ленту подкаста, и его выпуски появятся здесь."
        case .emptyPodcastsAction: "Добавить подкаст"
        case .emptyEpisodesTitle: "Выпусков нет"
        case .emptyEpisodesMessage: "У этого подкаста пока нет выпусков."
        case .emptyEpisodesAction: "Обновить"
        case .emptySessionsTitle: "Сессий пока нет"
        case .emptySessionsMessage: "Создайте сессию, чтобы проиграть последовательность треков с переходами."
        case .emptySessionsAction: "Новая сессия"
        case .noResultsTitle: "Ничего не найдено"
        case .noResultsMessage: "Нет совпадений для «{1}»."
        }
    }
}
