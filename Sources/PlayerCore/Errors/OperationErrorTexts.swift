/// The texts of errors that happen outside playback (fetching a feed, a download, artwork), in
/// English and Russian.
///
/// Only codes whose playback wording would be wrong elsewhere get their own text here: those that
/// speak of playback, streams, stations, or promise automatic retries that a one-off fetch does not
/// make. Every other code returns nil and keeps its playback text (an invalid feed or a damaged
/// library reads the same whatever was going on). The switches are exhaustive, so a new code must
/// decide whether it needs its own wording before it compiles.
///
/// Privacy: as `ErrorTexts`, only the code and its typed details (HTTP status, host) are used.
enum OperationErrorTexts {
    static func text(for error: PlaybackError, in language: Language, operation: ErrorOperation) -> LocalizedErrorText? {
        guard operation != .playback else { return nil }
        switch language {
        case .english: return english(error, EnglishNoun(operation))
        case .russian: return russian(error, RussianNoun(operation))
        }
    }

    // MARK: - English

    /// The thing that was being fetched, in the forms the sentences need.
    private struct EnglishNoun {
        /// "the feed"
        let the: String
        /// "The feed"
        var capitalized: String { the.prefix(1).uppercased() + the.dropFirst() }
        /// "the feed's address"
        var address: String { "\(the)'s address" }

        init(_ operation: ErrorOperation) {
            switch operation {
            case .playback, .download: the = "the episode"
            case .feed: the = "the podcast feed"
            case .artwork: the = "the artwork"
            }
        }
    }

    private static func english(_ error: PlaybackError, _ noun: EnglishNoun) -> LocalizedErrorText? {
        let status = error.httpStatus
        let later = "Check your internet connection and try again later."
        switch error.code {
        case .unknown:
            return ErrorTexts.make("Something Went Wrong", "Something unexpected went wrong while getting \(noun.the).", "Try again later.")
        case .cancelled:
            return ErrorTexts.make("Request Cancelled", "Getting \(noun.the) was cancelled.", "Start again when you're ready.")
        case .offline:
            return ErrorTexts.make("No Internet Connection", "You appear to be offline, so \(noun.the) couldn't be fetched.", later)
        case .connectionFailed:
            return ErrorTexts.make("Can't Connect", "Tonearm couldn't connect to the server to get \(noun.the).", later)
        case .connectionTimeout:
            return ErrorTexts.make("Connection Timed Out", "The server took too long to send \(noun.the).", later)
        case .stalled:
            return ErrorTexts.make("Transfer Stalled", "The server stopped sending \(noun.the) part way.", later)
        case .bufferingTimeout:
            return ErrorTexts.make("Loading Too Long", "Getting \(noun.the) is taking too long.", later)
        case .connectionLost:
            return ErrorTexts.make("Connection Lost", "The server closed the connection before \(noun.the) arrived.", later)
        case .dnsFailure:
            return ErrorTexts.make(
                "Server Not Found", "The server's name couldn't be found.", "Check your internet connection and \(noun.address).")
        case .httpUnauthorized:
            return ErrorTexts.make(
                "Access Denied", ErrorTexts.englishStatus("The server didn't allow getting \(noun.the).", status),
                "It may be private or need a subscription; check \(noun.address).")
        case .httpNotFound:
            let message = status == 410 ? "\(noun.capitalized) has been removed from the server." : "The server has no \(noun.the.dropFirst(4)) at this address."
            return ErrorTexts.make("Not Found", ErrorTexts.englishStatus(message, status), "Check \(noun.address); it may have moved.")
        case .httpRetryable:
            let message: String
            switch status {
            case 429: message = "The server is getting too many requests right now."
            case 408: message = "The server timed out waiting for the request."
            case 500: message = "The server ran into a problem."
            default: message = "The server is busy or temporarily unavailable."
            }
            return ErrorTexts.make("Server Unavailable", ErrorTexts.englishStatus(message, status), "Try again later.")
        case .httpClientError:
            return ErrorTexts.make(
                "Request Rejected", ErrorTexts.englishStatus("The server rejected the request for \(noun.the).", status),
                "Check \(noun.address).")
        case .streamUnavailable:
            return ErrorTexts.make("Address Unusable", "Tonearm can't fetch \(noun.the) from this address.", "Check \(noun.address).")
        case .wrongContentType:
            return ErrorTexts.make(
                "Unexpected Content", "The server sent something else (such as a web page) instead of \(noun.the).", "Check \(noun.address).")
        case .malformedData:
            return ErrorTexts.make("Unreadable Data", "The data received for \(noun.the) couldn't be read.", "Check \(noun.address), or try again later.")
        case .circuitOpen:
            let host = error.host ?? "its server"
            return ErrorTexts.make(
                "Server Not Responding",
                "\(noun.capitalized) wasn't requested: \(host) failed several times in a row, so Tonearm stopped contacting it for a while.",
                "Tonearm tries \(error.host ?? "it") again \(ErrorTexts.englishWhen(error)); try again after that.")
        case .invalidTransition, .missingAudioURL, .notInLibrary, .alreadyInLibrary, .tlsFailure, .fileNotFound,
            .permissionDenied, .libraryCorrupt, .libraryUnavailable, .sourceChanged, .unsupportedFormat, .hlsNotSupported,
            .invalidFeed, .documentTooLarge, .corruptData, .audioOutputUnavailable, .audioOutputLost:
            return nil
        }
    }

    // MARK: - Russian

    /// The thing that was being fetched, in the grammatical cases the sentences need.
    private struct RussianNoun {
        /// Accusative: «получить ленту подкаста».
        let accusative: String
        /// Genitive: «адрес ленты подкаста».
        let genitive: String

        init(_ operation: ErrorOperation) {
            switch operation {
            case .playback, .download: (accusative, genitive) = ("эпизод", "эпизода")
            case .feed: (accusative, genitive) = ("ленту подкаста", "ленты подкаста")
            case .artwork: (accusative, genitive) = ("обложку", "обложки")
            }
        }
    }

    private static func russian(_ error: PlaybackError, _ noun: RussianNoun) -> LocalizedErrorText? {
        let status = error.httpStatus
        let later = "Проверьте подключение к интернету и попробуйте позже."
        switch error.code {
        case .unknown:
            return ErrorTexts.make(
                "Что-то пошло не так", "При получении \(noun.genitive) произошла непредвиденная ошибка.", "Попробуйте позже.")
        case .cancelled:
            return ErrorTexts.make("Запрос отменён", "Получение \(noun.genitive) отменено.", "Начните снова, когда будете готовы.")
        case .offline:
            return ErrorTexts.make("Нет подключения к интернету", "Похоже, вы не в сети, поэтому не удалось получить \(noun.accusative).", later)
        case .connectionFailed:
            return ErrorTexts.make("Не удаётся подключиться", "Tonearm не смог подключиться к серверу, чтобы получить \(noun.accusative).", later)
        case .connectionTimeout:
            return ErrorTexts.make("Превышено время ожидания", "Сервер слишком долго передавал \(noun.accusative).", later)
        case .stalled:
            return ErrorTexts.make("Передача остановилась", "Сервер перестал передавать \(noun.accusative) на середине.", later)
        case .bufferingTimeout:
            return ErrorTexts.make("Слишком долгая загрузка", "Загрузка \(noun.genitive) идёт слишком долго.", later)
        case .connectionLost:
            return ErrorTexts.make("Соединение прервано", "Сервер закрыл соединение, не передав \(noun.accusative).", later)
        case .dnsFailure:
            return ErrorTexts.make(
                "Сервер не найден", "Не удалось найти сервер по его имени.", "Проверьте подключение к интернету и адрес \(noun.genitive).")
        case .httpUnauthorized:
            return ErrorTexts.make(
                "Доступ запрещён", ErrorTexts.russianStatus("Сервер не разрешил получить \(noun.accusative).", status),
                "Возможно, доступ закрыт или нужна подписка; проверьте адрес \(noun.genitive).")
        case .httpNotFound:
            let message = status == 410 ? "\(noun.genitive.prefix(1).uppercased() + noun.genitive.dropFirst()) больше нет на сервере." : "На сервере нет \(noun.genitive) по этому адресу."
            return ErrorTexts.make("Не найдено", ErrorTexts.russianStatus(message, status), "Проверьте адрес \(noun.genitive); возможно, он изменился.")
        case .httpRetryable:
            let message: String
            switch status {
            case 429: message = "Сервер сейчас получает слишком много запросов."
            case 408: message = "Сервер не дождался запроса."
            case 500: message = "На сервере произошла ошибка."
            default: message = "Сервер перегружен или временно недоступен."
            }
            return ErrorTexts.make("Сервер недоступен", ErrorTexts.russianStatus(message, status), "Попробуйте позже.")
        case .httpClientError:
            return ErrorTexts.make(
                "Запрос отклонён", ErrorTexts.russianStatus("Сервер отклонил запрос \(noun.genitive).", status),
                "Проверьте адрес \(noun.genitive).")
        case .streamUnavailable:
            return ErrorTexts.make(
                "Адрес не подходит", "Tonearm не может получить \(noun.accusative) по этому адресу.", "Проверьте адрес \(noun.genitive).")
        case .wrongContentType:
            return ErrorTexts.make(
                "Неожиданное содержимое", "Сервер прислал что-то другое (например, веб-страницу) вместо \(noun.genitive).",
                "Проверьте адрес \(noun.genitive).")
        case .malformedData:
            return ErrorTexts.make(
                "Нечитаемые данные", "Не удалось прочитать полученные данные \(noun.genitive).",
                "Проверьте адрес \(noun.genitive) или попробуйте позже.")
        case .circuitOpen:
            let host = error.host.map { "сервер \($0)" } ?? "сервер"
            return ErrorTexts.make(
                "Сервер не отвечает",
                "Tonearm не стал запрашивать \(noun.accusative): \(host) несколько раз подряд не ответил, и Tonearm временно к нему не обращается.",
                "Tonearm снова попробует подключиться \(ErrorTexts.russianWhen(error)); повторите после этого.")
        case .invalidTransition, .missingAudioURL, .notInLibrary, .alreadyInLibrary, .tlsFailure, .fileNotFound,
            .permissionDenied, .libraryCorrupt, .libraryUnavailable, .sourceChanged, .unsupportedFormat, .hlsNotSupported,
            .invalidFeed, .documentTooLarge, .corruptData, .audioOutputUnavailable, .audioOutputLost:
            return nil
        }
    }
}
