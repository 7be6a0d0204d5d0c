/// The English and Russian texts of every `PlaybackError.Code`.
///
/// Each language is one exhaustive `switch` without `default`, so a new code does not compile
/// until it has texts in every language.
///
/// Privacy: texts are built only from the code and its typed, non-personal details (the HTTP
/// status number, the refused action and state). URLs, paths, titles, credentials and
/// `underlying` never reach them.
enum ErrorTexts {
    static func text(for error: PlaybackError, in language: Language, operation: ErrorOperation = .playback) -> LocalizedErrorText {
        if operation != .playback, let text = OperationErrorTexts.text(for: error, in: language, operation: operation) { return text }
        switch language {
        case .english: return english(error)
        case .russian: return russian(error)
        }
    }

    // MARK: - English

    private static func english(_ error: PlaybackError) -> LocalizedErrorText {
        let status = error.httpStatus
        switch error.code {
        case .unknown:
            return make(
                "Playback Error",
                "Something unexpected went wrong.",
                "Try again. If it keeps happening, restart Tonearm.")
        case .invalidTransition:
            let message: String
            if let action = error.rejectedAction, let state = error.rejectedState {
                message = "\(englishAction(action)) isn't possible \(englishState(state))."
            } else {
                message = "That action isn't possible right now."
            }
            return make(
                "Action Not Available",
                message,
                "Wait for the current step to finish, or choose another action.")
        case .cancelled:
            return make(
                "Playback Cancelled",
                "Loading was cancelled.",
                "Start playback again when you're ready.")
        case .missingAudioURL:
            return make(
                "No Audio",
                "This episode doesn't have audio available",
                "Choose another episode.")
        case .notInLibrary:
            return make(
                "Not in Your Library",
                "Nothing in your library matches that name or number.",
                "List your library to see the names and numbers it has.")
        case .alreadyInLibrary:
            return make(
                "Already in Your Library",
                "Your library already has this.",
                "Use the existing entry, or choose another name.")
        case .offline:
            return make(
                "No Internet Connection",
                "You appear to be offline.",
                "Check your internet connection. Playback continues when you're back online.")
        case .connectionFailed:
            return make(
                "Can't Connect",
                "Unable to load. Check your connection.",
                "Check your internet connection and try again. Tonearm keeps retrying meanwhile.")
        case .connectionTimeout:
            return make(
                "Connection Timed Out",
                "The server is taking too long to respond.",
                "Check your internet connection. Tonearm tries again automatically.")
        case .connectionLost:
            return make(
                "Connection Lost",
                "The connection dropped during playback.",
                "Tonearm reconnects automatically. If it can't, check your connection.")
        case .dnsFailure:
            return make(
                "Server Not Found",
                "The server's name couldn't be found.",
                "Check your internet connection and the station's address.")
        case .tlsFailure:
            return make(
                "Secure Connection Failed",
                "A secure connection to the server couldn't be made.",
                "Check your computer's date and time, then try again.")
        case .httpUnauthorized:
            let (message, suggestion): (String, String)
            switch status {
            case 401:
                message = "This stream requires signing in."
                suggestion = "Check your login details or subscription for this stream."
            case 403:
                message = "The server refused access to this stream."
                suggestion = "This stream may need a subscription or be unavailable in your region."
            default:
                message = "Access to this stream was denied."
                suggestion = "Check that you have access to this stream."
            }
            return make("Access Denied", englishStatus(message, status), suggestion)
        case .httpNotFound:
            let (message, suggestion): (String, String)
            switch status {
            case 410:
                message = "This stream or episode has been removed from the server."
                suggestion = "Choose another station or episode."
            default:
                message = "This stream or episode wasn't found on the server."
                suggestion = "Check the address, or try again later."
            }
            return make("Not Found", englishStatus(message, status), suggestion)
        case .httpRetryable:
            let (message, suggestion): (String, String)
            switch status {
            case 429:
                message = "The server is getting too many requests right now."
                suggestion = "Wait a moment. Tonearm tries again automatically."
            case 408:
                message = "The server timed out waiting for the request."
                suggestion = "Check your internet connection. Tonearm tries again automatically."
            case 502, 503, 504:
                message = "The server is busy or temporarily unavailable."
                suggestion = "Try again later. Tonearm keeps trying in the meantime."
            case 500:
                message = "The server ran into a problem."
                suggestion = "Try again later. Tonearm keeps trying in the meantime."
            default:
                message = "The server can't answer right now."
                suggestion = "Try again later. Tonearm keeps trying in the meantime."
            }
            return make("Server Unavailable", englishStatus(message, status), suggestion)
        case .httpClientError:
            return make(
                "Request Rejected",
                englishStatus("The server rejected the request.", status),
                "Check the address, or choose another station.")
        case .fileNotFound:
            return make(
                "File Not Found",
                "The audio file couldn't be found.",
                "Check that the file still exists and hasn't been moved.")
        case .permissionDenied:
            return make(
                "Permission Denied",
                "Tonearm isn't allowed to read this file.",
                "Check the file's permissions, or choose another file.")
        case .streamUnavailable:
            return make(
                "Stream Unavailable",
                "The stream is temporarily unavailable.",
                "Try again later. Tonearm keeps trying in the meantime.")
        case .bufferingTimeout:
            return make(
                "Loading Too Long",
                "Loading is taking too long.",
                "Check your internet connection. Tonearm reconnects automatically.")
        case .stalled:
            return make(
                "Stream Stalled",
                "The stream stopped sending audio.",
                "Tonearm is reconnecting. If this keeps happening, check your connection.")
        case .wrongContentType:
            return make(
                "Not an Audio Stream",
                "This address doesn't lead to audio.",
                "Check the address, or choose another station.")
        case .libraryCorrupt:
            return make(
                "Library Was Damaged",
                "Your library file was damaged, so Tonearm kept it aside and started a new one.",
                "Add your podcasts and stations again, or import them from an OPML or playlist file.")
        case .libraryUnavailable:
            return make(
                "Library Unavailable",
                "Tonearm can't open or save your library.",
                "Check that your data folder is writable and the disk is not full.")
        case .sourceChanged:
            return make(
                "Episode Changed",
                "The episode's file changed on the server while it was playing.",
                "Try again to continue from the same point in the new file.")
        case .circuitOpen:
            let host = error.host ?? "The server"
            return make(
                "Server Not Responding",
                "\(host) failed several times in a row, so Tonearm stopped contacting it for a while.",
                "Tonearm tries \(error.host ?? "it") again \(englishWhen(error)).")
        case .malformedData:
            return make(
                "Unreadable Data",
                "The data received couldn't be read.",
                "Try another station or episode.")
        case .unsupportedFormat:
            return make(
                "Unsupported Format",
                "This audio format isn't supported.",
                "Try another stream or a file in a different format.")
        case .hlsNotSupported:
            return make(
                "HLS Not Supported",
                "This is an HLS stream, which Tonearm can't play yet.",
                "Look for the station's MP3, AAC or Ogg stream address instead.")
        case .invalidFeed:
            return make(
                "Not a Podcast Feed",
                "This address doesn't lead to a podcast feed.",
                "Check the feed address; it usually ends in .rss or .xml or says \"feed\".")
        case .documentTooLarge:
            return make(
                "File Too Large",
                "This file is larger than Tonearm accepts.",
                "Check that the address or file is the right one.")
        case .corruptData:
            return make(
                "Damaged Audio",
                "The audio is damaged and can't be played.",
                "Choose another file or episode.")
        case .audioOutputUnavailable:
            return make(
                "No Sound Output",
                "No sound server is available to play audio.",
                "Start PulseAudio or PipeWire, or play to a file with --output wav:FILE.")
        case .audioOutputLost:
            return make(
                "Sound Output Lost",
                "The sound server went away. Playback is on hold.",
                "Playback resumes when the sound server is back. If it doesn't, restart PulseAudio or PipeWire.")
        }
    }

    static func englishStatus(_ message: String, _ status: Int?) -> String {
        guard let status else { return message }
        return "\(message) The server answered with status \(status)."
    }

    private static func englishAction(_ action: PlayerAction) -> String {
        switch action {
        case .play: "Play"
        case .pause: "Pause"
        case .resume: "Resume"
        case .stop: "Stop"
        case .skip: "Skip"
        case .seek: "Seeking"
        case .retry: "Retry"
        case .reset: "Reset"
        case .retryNow: "Retrying now"
        case .cancelRetry: "Cancelling the retry"
        }
    }

    private static func englishState(_ state: PlayerState.Name) -> String {
        switch state {
        case .idle: "while nothing is playing"
        case .preparing: "while loading"
        case .preparingCrossfade: "while the next track is loading"
        case .playing: "while playing"
        case .buffering: "while buffering"
        case .crossfading: "during a crossfade"
        case .paused: "while paused"
        case .crossfadePaused: "while a crossfade is paused"
        case .fadingOut: "while fading out"
        case .reconnecting: "while reconnecting"
        case .finished: "after playback has finished"
        case .failed: "after playback has failed"
        }
    }

    // MARK: - Russian

    private static func russian(_ error: PlaybackError) -> LocalizedErrorText {
        let status = error.httpStatus
        switch error.code {
        case .unknown:
            return make(
                "Ошибка воспроизведения",
                "Произошла непредвиденная ошибка.",
                "Попробуйте ещё раз. Если ошибка повторяется, перезапустите Tonearm.")
        case .invalidTransition:
            let message: String
            if let action = error.rejectedAction, let state = error.rejectedState {
                message = "Нельзя \(russianAction(action))\(russianState(state))."
            } else {
                message = "Это действие сейчас недоступно."
            }
            return make(
                "Действие недоступно",
                message,
                "Дождитесь завершения текущего шага или выберите другое действие.")
        case .cancelled:
            return make(
                "Воспроизведение отменено",
                "Загрузка была отменена.",
                "Запустите воспроизведение снова, когда будете готовы.")
        case .missingAudioURL:
            return make(
                "Нет аудио",
                "У этого эпизода нет доступного аудио.",
                "Выберите другой эпизод.")
        case .notInLibrary:
            return make(
                "Нет в библиотеке",
                "В вашей библиотеке нет ничего с таким названием или номером.",
                "Откройте список библиотеки, чтобы увидеть названия и номера.")
        case .alreadyInLibrary:
            return make(
                "Уже в библиотеке",
                "Это уже есть в вашей библиотеке.",
                "Используйте существующую запись или выберите другое название.")
        case .offline:
            return make(
                "Нет подключения к интернету",
                "Похоже, вы не в сети.",
                "Проверьте подключение к интернету. Воспроизведение продолжится, когда связь восстановится.")
        case .connectionFailed:
            return make(
                "Не удаётся подключиться",
                "Не удалось загрузить. Проверьте подключение.",
                "Проверьте подключение к интернету и попробуйте ещё раз. Tonearm тем временем продолжает попытки.")
        case .connectionTimeout:
            return make(
                "Превышено время ожидания",
                "Сервер слишком долго не отвечает.",
                "Проверьте подключение к интернету. Tonearm повторит попытку автоматически.")
        case .connectionLost:
            return make(
                "Соединение прервано",
                "Соединение оборвалось во время воспроизведения.",
                "Tonearm переподключится автоматически. Если не получится, проверьте подключение.")
        case .dnsFailure:
            return make(
                "Сервер не найден",
                "Не удалось найти сервер по его имени.",
                "Проверьте подключение к интернету и адрес станции.")
        case .tlsFailure:
            return make(
                "Ошибка защищённого соединения",
                "Не удалось установить защищённое соединение с сервером.",
                "Проверьте дату и время на компьютере и попробуйте ещё раз.")
        case .httpUnauthorized:
            let (message, suggestion): (String, String)
            switch status {
            case 401:
                message = "Для этого потока нужно войти в учётную запись."
                suggestion = "Проверьте данные для входа или подписку на этот поток."
            case 403:
                message = "Сервер отказал в доступе к этому потоку."
                suggestion = "Возможно, поток доступен только по подписке или недоступен в вашем регионе."
            default:
                message = "Доступ к этому потоку запрещён."
                suggestion = "Проверьте, есть ли у вас доступ к этому потоку."
            }
            return make("Доступ запрещён", russianStatus(message, status), suggestion)
        case .httpNotFound:
            let (message, suggestion): (String, String)
            switch status {
            case 410:
                message = "Этот поток или эпизод удалён с сервера."
                suggestion = "Выберите другую станцию или эпизод."
            default:
                message = "Этот поток или эпизод не найден на сервере."
                suggestion = "Проверьте адрес или попробуйте позже."
            }
            return make("Не найдено", russianStatus(message, status), suggestion)
        case .httpRetryable:
            let (message, suggestion): (String, String)
            switch status {
            case 429:
                message = "Сервер сейчас получает слишком много запросов."
                suggestion = "Подождите немного. Tonearm повторит попытку автоматически."
            case 408:
                message = "Сервер не дождался запроса."
                suggestion = "Проверьте подключение к интернету. Tonearm повторит попытку автоматически."
            case 502, 503, 504:
                message = "Сервер перегружен или временно недоступен."
                suggestion = "Попробуйте позже. Tonearm тем временем продолжает попытки."
            case 500:
                message = "На сервере произошла ошибка."
                suggestion = "Попробуйте позже. Tonearm тем временем продолжает попытки."
            default:
                message = "Сервер сейчас не может ответить."
                suggestion = "Попробуйте позже. Tonearm тем временем продолжает попытки."
            }
            return make("Сервер недоступен", russianStatus(message, status), suggestion)
        case .httpClientError:
            return make(
                "Запрос отклонён",
                russianStatus("Сервер отклонил запрос.", status),
                "Проверьте адрес или выберите другую станцию.")
        case .fileNotFound:
            return make(
                "Файл не найден",
                "Аудиофайл не найден.",
                "Проверьте, что файл существует и не был перемещён.")
        case .permissionDenied:
            return make(
                "Нет доступа",
                "У Tonearm нет прав на чтение этого файла.",
                "Проверьте права доступа к файлу или выберите другой файл.")
        case .streamUnavailable:
            return make(
                "Поток недоступен",
                "Радиопоток временно недоступен.",
                "Попробуйте позже. Tonearm тем временем продолжает попытки.")
        case .bufferingTimeout:
            return make(
                "Слишком долгая загрузка",
                "Загрузка занимает слишком много времени.",
                "Проверьте подключение к интернету. Tonearm переподключится автоматически.")
        case .stalled:
            return make(
                "Поток остановился",
                "Поток перестал передавать звук.",
                "Tonearm переподключается. Если это повторяется, проверьте подключение.")
        case .wrongContentType:
            return make(
                "Это не аудиопоток",
                "По этому адресу нет аудио.",
                "Проверьте адрес или выберите другую станцию.")
        case .libraryCorrupt:
            return make(
                "Библиотека повреждена",
                "Файл вашей библиотеки был повреждён, поэтому Tonearm отложил его и создал новый.",
                "Добавьте подкасты и станции заново или импортируйте их из файла OPML или плейлиста.")
        case .libraryUnavailable:
            return make(
                "Библиотека недоступна",
                "Tonearm не может открыть или сохранить вашу библиотеку.",
                "Проверьте, что папка данных доступна для записи и диск не переполнен.")
        case .sourceChanged:
            return make(
                "Эпизод изменился",
                "Файл эпизода изменился на сервере во время воспроизведения.",
                "Повторите, чтобы продолжить с того же места в новом файле.")
        case .circuitOpen:
            let host = error.host.map { "Сервер \($0)" } ?? "Сервер"
            return make(
                "Сервер не отвечает",
                "\(host) несколько раз подряд не ответил, поэтому Tonearm временно к нему не обращается.",
                "Tonearm снова попробует подключиться \(russianWhen(error)).")
        case .malformedData:
            return make(
                "Нечитаемые данные",
                "Полученные данные не удалось прочитать.",
                "Попробуйте другую станцию или эпизод.")
        case .unsupportedFormat:
            return make(
                "Формат не поддерживается",
                "Этот аудиоформат не поддерживается.",
                "Попробуйте другой поток или файл в другом формате.")
        case .hlsNotSupported:
            return make(
                "HLS не поддерживается",
                "Это поток HLS, который Tonearm пока не умеет воспроизводить.",
                "Найдите адрес потока станции в формате MP3, AAC или Ogg.")
        case .invalidFeed:
            return make(
                "Это не лента подкаста",
                "По этому адресу нет ленты подкаста.",
                "Проверьте адрес ленты; обычно он оканчивается на .rss или .xml или содержит слово «feed».")
        case .documentTooLarge:
            return make(
                "Файл слишком большой",
                "Этот файл больше, чем принимает Tonearm.",
                "Проверьте, что адрес или файл указан верно.")
        case .corruptData:
            return make(
                "Повреждённое аудио",
                "Аудиоданные повреждены, воспроизвести их нельзя.",
                "Выберите другой файл или эпизод.")
        case .audioOutputUnavailable:
            return make(
                "Нет вывода звука",
                "Нет звукового сервера для воспроизведения.",
                "Запустите PulseAudio или PipeWire либо выведите звук в файл: --output wav:FILE.")
        case .audioOutputLost:
            return make(
                "Воспроизведение прервано",
                "Звуковой сервер отключился. Воспроизведение приостановлено.",
                "Воспроизведение продолжится, когда звуковой сервер вернётся. Если этого не произошло, перезапустите PulseAudio или PipeWire.")
        }
    }

    static func russianStatus(_ message: String, _ status: Int?) -> String {
        guard let status else { return message }
        return "\(message) Сервер ответил кодом \(status)."
    }

    /// Infinitives, for "Нельзя …".
    private static func russianAction(_ action: PlayerAction) -> String {
        switch action {
        case .play: "начать воспроизведение"
        case .pause: "поставить на паузу"
        case .resume: "продолжить воспроизведение"
        case .stop: "остановить воспроизведение"
        case .skip: "перейти к следующему треку"
        case .seek: "перемотать"
        case .retry: "повторить попытку"
        case .reset: "сбросить плеер"
        case .retryNow: "повторить попытку сейчас"
        case .cancelRetry: "отменить повторные попытки"
        }
    }

    /// With what goes before it: a comma before «когда», a space otherwise.
    private static func russianState(_ state: PlayerState.Name) -> String {
        switch state {
        case .idle: ", когда ничего не воспроизводится"
        case .preparing: " во время загрузки"
        case .preparingCrossfade: " во время загрузки следующего трека"
        case .playing: " во время воспроизведения"
        case .buffering: " во время буферизации"
        case .crossfading: " во время плавного перехода"
        case .paused: " на паузе"
        case .crossfadePaused: ", когда плавный переход на паузе"
        case .fadingOut: " во время затухания"
        case .reconnecting: " во время переподключения"
        case .finished: " после окончания воспроизведения"
        case .failed: " после ошибки воспроизведения"
        }
    }

    /// Whole seconds until an open breaker lets a probe through (its `retryAfter`), rounded up
    /// so the text never promises a try earlier than it comes.
    static func secondsUntilRetry(_ error: PlaybackError) -> Int? {
        guard case .seconds(let seconds)? = error.retryAfter, seconds.isFinite else { return nil }
        return Int(min(RetryAfter.maximumDelay, max(0, seconds)).rounded(.up))
    }

    /// "in 30 s", "in 2 min", "in a moment".
    static func englishWhen(_ error: PlaybackError) -> String {
        guard let seconds = secondsUntilRetry(error), seconds > 0 else { return "in a moment" }
        if seconds < 120 { return "in \(seconds) s" }
        return "in \((seconds + 59) / 60) min"
    }

    /// "через 30 с", "через 2 мин", "через несколько секунд".
    static func russianWhen(_ error: PlaybackError) -> String {
        guard let seconds = secondsUntilRetry(error), seconds > 0 else { return "через несколько секунд" }
        if seconds < 120 { return "через \(seconds) с" }
        return "через \((seconds + 59) / 60) мин"
    }

    static func make(_ title: String, _ message: String, _ suggestion: String) -> LocalizedErrorText {
        LocalizedErrorText(title: title, message: message, recoverySuggestion: suggestion)
    }
}
