import PlayerCore

/// The three texts a person sees for an error: title, message, recovery suggestion.
package struct LocalizedErrorText: Sendable, Hashable, Codable {
    package let title: String
    package let message: String
    package let recoverySuggestion: String

    package init(title: String, message: String, recoverySuggestion: String) {
        self.title = title
        self.message = message
        self.recoverySuggestion = recoverySuggestion
    }
}

extension PlaybackError {
    /// Title, message and suggestion in `language`, worded for playback.
    package func text(in language: Language) -> LocalizedErrorText { ErrorTexts.text(for: self, in: language) }

    /// Title, message and suggestion in `language`, worded for what failed: a dropped connection
    /// while fetching a feed must not talk about playback or promise a reconnect nobody makes.
    package func text(in language: Language, for operation: ErrorOperation) -> LocalizedErrorText {
        ErrorTexts.text(for: self, in: language, operation: operation)
    }

    package func title(in language: Language) -> String { text(in: language).title }
    package func message(in language: Language) -> String { text(in: language).message }
    package func recoverySuggestion(in language: Language) -> String { text(in: language).recoverySuggestion }
}

/// Which catalog keys make an error's texts (the texts are in the catalogs, see `Texts`).
///
/// Keys: `error.playback.<code>.title|message|suggestion` for playback. Fetching something else
/// (`ErrorOperation` feed, download, artwork) has its own wording for the codes whose playback
/// wording would be wrong there (it speaks of playback or streams, or promises automatic retries
/// a one-off fetch does not make): the texts that name what was fetched are
/// `error.<operation>.<code>.…`, the rest `error.fetch.<code>.…`. Every other code keeps its
/// playback texts. A status with its own wording adds what it means to the key
/// (`….message.gone` for 410), and the status number is added by `error.status`.
///
/// Privacy: texts are built only from the code and its typed, non-personal details (the HTTP
/// status number, the refused action and state, the host). URLs, paths, titles, credentials and
/// `underlying` never reach them.
enum ErrorTexts {
    static func text(for error: PlaybackError, in language: Language, operation: ErrorOperation = .playback) -> LocalizedErrorText {
        if operation != .playback, hasFetchWording(error.code) { return fetch(error, in: language, operation: operation) }
        return playback(error, in: language)
    }

    // MARK: - Playback

    private static func playback(_ error: PlaybackError, in language: Language) -> LocalizedErrorText {
        let base = "error.playback.\(error.code)"
        func t(_ suffix: String, _ arguments: any CVarArg...) -> String {
            Texts.format("\(base).\(suffix)", in: language, arguments: arguments)
        }
        let title = t("title")
        switch error.code {
        case .invalidTransition:
            let message: String
            if let action = error.rejectedAction, let state = error.rejectedState {
                message = t("message.refused", t("action.\(action.rawValue)"), t("state.\(state.rawValue)"))
            } else {
                message = t("message")
            }
            return LocalizedErrorText(title: title, message: message, recoverySuggestion: t("suggestion"))
        case .httpUnauthorized, .httpNotFound, .httpRetryable:
            let meaning = statusMeaning(error.code, error.httpStatus).map { ".\($0)" } ?? ""
            return LocalizedErrorText(
                title: title, message: withStatus(t("message" + meaning), error.httpStatus, language),
                recoverySuggestion: t("suggestion" + meaning))
        case .httpClientError:
            return LocalizedErrorText(
                title: title, message: withStatus(t("message"), error.httpStatus, language), recoverySuggestion: t("suggestion"))
        case .circuitOpen:
            let message = error.host.map { t("message.host", $0) } ?? t("message")
            return LocalizedErrorText(title: title, message: message, recoverySuggestion: t("suggestion", when(error, language)))
        case .unknown, .cancelled, .missingAudioURL, .notInLibrary, .alreadyInLibrary, .offline, .connectionFailed,
            .connectionTimeout, .connectionLost, .dnsFailure, .tlsFailure, .fileNotFound, .permissionDenied,
            .streamUnavailable, .bufferingTimeout, .stalled, .wrongContentType, .libraryCorrupt, .libraryUnavailable,
            .sourceChanged, .malformedData, .unsupportedFormat, .hlsNotSupported, .invalidFeed, .documentTooLarge,
            .corruptData, .audioOutputUnavailable, .audioOutputLost, .daemonRunning, .seekFailed, .diskFull, .alarmMissed, .sourceSilent, .noTranscript:
            return LocalizedErrorText(title: title, message: t("message"), recoverySuggestion: t("suggestion"))
        }
    }

    /// The statuses with their own wording, by what they mean (the key's last part).
    private static func statusMeaning(_ code: PlaybackError.Code, _ status: Int?) -> String? {
        switch (code, status) {
        case (.httpUnauthorized, 401): "signInRequired"
        case (.httpUnauthorized, 403): "refused"
        case (.httpNotFound, 410): "gone"
        case (.httpRetryable, 429): "tooManyRequests"
        case (.httpRetryable, 408): "requestTimeout"
        case (.httpRetryable, 502), (.httpRetryable, 503), (.httpRetryable, 504): "busy"
        case (.httpRetryable, 500): "serverError"
        default: nil
        }
    }

    // MARK: - Fetching

    /// The codes whose playback wording would be wrong for a fetch. Exhaustive, so a new code
    /// must decide before it compiles.
    static func hasFetchWording(_ code: PlaybackError.Code) -> Bool {
        switch code {
        case .unknown, .cancelled, .offline, .connectionFailed, .connectionTimeout, .stalled, .bufferingTimeout,
            .connectionLost, .dnsFailure, .httpUnauthorized, .httpNotFound, .httpRetryable, .httpClientError,
            .streamUnavailable, .wrongContentType, .malformedData, .circuitOpen:
            true
        case .invalidTransition, .missingAudioURL, .notInLibrary, .alreadyInLibrary, .tlsFailure, .fileNotFound,
            .permissionDenied, .libraryCorrupt, .libraryUnavailable, .sourceChanged, .unsupportedFormat, .hlsNotSupported,
            .invalidFeed, .documentTooLarge, .corruptData, .audioOutputUnavailable, .audioOutputLost, .daemonRunning, .seekFailed, .diskFull,
            .alarmMissed, .sourceSilent, .noTranscript:
            false
        }
    }

    private static func fetch(_ error: PlaybackError, in language: Language, operation: ErrorOperation) -> LocalizedErrorText {
        let shared = "error.fetch.\(error.code)"
        let named = "error.\(operation.rawValue).\(error.code)"
        func t(_ key: String, _ arguments: any CVarArg...) -> String {
            Texts.format(key, in: language, arguments: arguments)
        }
        let title = t("\(shared).title")
        switch error.code {
        case .unknown, .cancelled, .offline, .connectionFailed, .connectionTimeout, .stalled, .bufferingTimeout,
            .connectionLost:
            return LocalizedErrorText(title: title, message: t("\(named).message"), recoverySuggestion: t("\(shared).suggestion"))
        case .dnsFailure:
            return LocalizedErrorText(title: title, message: t("\(shared).message"), recoverySuggestion: t("\(named).suggestion"))
        case .httpUnauthorized, .httpClientError:
            return LocalizedErrorText(
                title: title, message: withStatus(t("\(named).message"), error.httpStatus, language),
                recoverySuggestion: t("\(named).suggestion"))
        case .httpNotFound:
            let message = error.httpStatus == 410 ? t("\(named).message.gone") : t("\(named).message")
            return LocalizedErrorText(
                title: title, message: withStatus(message, error.httpStatus, language), recoverySuggestion: t("\(named).suggestion"))
        case .httpRetryable:
            let meaning: String
            switch error.httpStatus {
            case 429: meaning = ".tooManyRequests"
            case 408: meaning = ".requestTimeout"
            case 500: meaning = ".serverError"
            default: meaning = ""
            }
            return LocalizedErrorText(
                title: title, message: withStatus(t("\(shared).message\(meaning)"), error.httpStatus, language),
                recoverySuggestion: t("\(shared).suggestion"))
        case .circuitOpen:
            let message = error.host.map { t("\(named).message.host", $0) } ?? t("\(named).message")
            return LocalizedErrorText(
                title: title, message: message, recoverySuggestion: t("\(shared).suggestion", when(error, language)))
        case .streamUnavailable, .wrongContentType, .malformedData:
            return LocalizedErrorText(title: title, message: t("\(named).message"), recoverySuggestion: t("\(named).suggestion"))
        case .invalidTransition, .missingAudioURL, .notInLibrary, .alreadyInLibrary, .tlsFailure, .fileNotFound,
            .permissionDenied, .libraryCorrupt, .libraryUnavailable, .sourceChanged, .unsupportedFormat, .hlsNotSupported,
            .invalidFeed, .documentTooLarge, .corruptData, .audioOutputUnavailable, .audioOutputLost, .daemonRunning, .seekFailed, .diskFull,
            .alarmMissed, .sourceSilent, .noTranscript:
            return playback(error, in: language)
        }
    }

    // MARK: - Shared parts

    /// `message` followed by the status the server answered with, when there was one.
    private static func withStatus(_ message: String, _ status: Int?, _ language: Language) -> String {
        guard let status else { return message }
        return Texts.format("error.status", in: language, arguments: [message, status])
    }

    /// Whole seconds until an open breaker lets a probe through (its `retryAfter`), rounded up
    /// so the text never promises a try earlier than it comes.
    static func secondsUntilRetry(_ error: PlaybackError) -> Int? {
        guard case .seconds(let seconds)? = error.retryAfter, seconds.isFinite else { return nil }
        return Int(min(RetryAfter.maximumDelay, max(0, seconds)).rounded(.up))
    }

    /// "in 30 s" under two minutes, then "in 2 min" (rounded up), "in a moment" when unknown.
    static func when(_ error: PlaybackError, _ language: Language) -> String {
        guard let seconds = secondsUntilRetry(error), seconds > 0 else { return Texts.string("error.retryWhen.soon", in: language) }
        if seconds < 120 { return Texts.format("error.retryWhen.seconds", in: language, seconds) }
        return Texts.format("error.retryWhen.minutes", in: language, (seconds + 59) / 60)
    }
}
