import Foundation
import Presentation
import Testing

@testable import PlayerCore

// MARK: - Helpers

/// A plain Swift error whose description is whatever we give it (canaries included).
private struct DescribedError: Error, CustomStringConvertible {
    let description: String
}

private struct DecodableProbe: Decodable {
    let value: Int
}

private func containsCyrillic(_ text: String) -> Bool {
    text.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }
}

/// One representative error per code: the typed details a real one would carry.
private func sample(_ code: PlaybackError.Code) -> PlaybackError {
    switch code {
    case .httpUnauthorized: PlaybackError(code, httpStatus: 401)
    case .httpNotFound: PlaybackError(code, httpStatus: 404)
    case .httpRetryable: PlaybackError(code, httpStatus: 503)
    case .httpClientError: PlaybackError(code, httpStatus: 400)
    case .invalidTransition: PlaybackError.invalidTransition(.pause, in: .preparing)
    default: PlaybackError(code)
    }
}

/// Every error shape whose texts can differ: each code bare, each HTTP code with many statuses,
/// and every refused action in every state.
private func allTextVariants() -> [PlaybackError] {
    var errors = PlaybackError.Code.allCases.map { PlaybackError($0) }
    for status in [400, 401, 403, 404, 405, 408, 410, 418, 429, 500, 501, 502, 503, 504, 599] {
        if let error = PlaybackError.from(httpStatus: status) { errors.append(error) }
    }
    for action in PlayerAction.allCases {
        for state in PlayerState.Name.allCases {
            errors.append(.invalidTransition(action, in: state))
        }
    }
    return errors
}

// MARK: - Codes, categories, dispositions

@Suite struct PlaybackErrorCodeTests {
    @Test func errorTypesAreDistinctAndWellFormed() throws {
        let pattern = #/^(Network|Authorization|Resource|Operation|System)\.[a-zA-Z]+$/#
        var seen: [String: PlaybackError.Code] = [:]
        for code in PlaybackError.Code.allCases {
            let type = PlaybackError(code).errorType
            #expect(type.wholeMatch(of: pattern) != nil, "\(code): \(type)")
            #expect(type.hasPrefix(code.category.rawValue + "."), "\(code): \(type)")
            if let other = seen[type] {
                Issue.record("\(code) and \(other) share errorType \(type)")
            }
            seen[type] = code
        }
        #expect(seen.count == PlaybackError.Code.allCases.count)
    }

    @Test func knownErrorTypes() {
        #expect(PlaybackError(.connectionTimeout).errorType == "Network.timeout")
        #expect(PlaybackError(.httpUnauthorized).errorType == "Authorization.denied")
        #expect(PlaybackError(.missingAudioURL).errorType == "Resource.missingAudioURL")
        #expect(PlaybackError(.invalidTransition).errorType == "Operation.invalidTransition")
        #expect(PlaybackError(.audioOutputUnavailable).errorType == "System.audioOutputUnavailable")
    }

    @Test func codesAreGroupedByThousands() {
        let groups: [Int: PlaybackError.Group] = [
            1: .general, 2: .networkIO, 3: .parsing, 4: .decoding, 5: .audioOutput,
        ]
        for code in PlaybackError.Code.allCases {
            #expect((1000..<6000).contains(code.rawValue), "\(code) = \(code.rawValue)")
            #expect(code.group == groups[code.rawValue / 1000], "\(code) = \(code.rawValue)")
        }
        #expect(PlaybackError.Code.unknown.group == .general)
        #expect(PlaybackError.Code.missingAudioURL.group == .general)
        #expect(PlaybackError.Code.offline.group == .networkIO)
        #expect(PlaybackError.Code.fileNotFound.group == .networkIO)
        #expect(PlaybackError.Code.malformedData.group == .parsing)
        #expect(PlaybackError.Code.corruptData.group == .decoding)
        #expect(PlaybackError.Code.audioOutputLost.group == .audioOutput)
        // Every group is used.
        #expect(Set(PlaybackError.Code.allCases.map(\.group)) == Set(PlaybackError.Group.allCases))
    }

    @Test(arguments: PlaybackError.Code.allCases)
    func dispositionDrivesRetryFlags(code: PlaybackError.Code) {
        let error = PlaybackError(code)
        #expect(error.isRetryable == (error.disposition == .automatic))
        #expect(error.isRecoverable == (error.disposition != .final))
        if error.isRetryable { #expect(error.isRecoverable, "retryable implies recoverable: \(code)") }
    }

    @Test func specificDispositions() {
        #expect(!PlaybackError(.missingAudioURL).isRecoverable)
        #expect(!PlaybackError(.missingAudioURL).isRetryable)
        #expect(PlaybackError(.invalidTransition).disposition == .final)
        #expect(PlaybackError(.corruptData).disposition == .final)
        #expect(PlaybackError(.offline).isRetryable)
        #expect(PlaybackError(.connectionLost).isRetryable)
        #expect(PlaybackError(.httpRetryable).isRetryable)
        #expect(PlaybackError(.audioOutputLost).isRetryable)
        #expect(!PlaybackError(.httpNotFound).isRetryable)
        #expect(PlaybackError(.httpNotFound).isRecoverable)
        #expect(!PlaybackError(.httpUnauthorized).isRecoverable)
    }

    @Test func equalityIgnoresLogText() {
        let a = PlaybackError(.offline, underlying: "first")
        let b = PlaybackError(.offline, underlying: "second")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(PlaybackError(.httpRetryable, httpStatus: 503) != PlaybackError(.httpRetryable, httpStatus: 429))
    }

    @Test func underlyingIsSanitizedForLogs() {
        let error = PlaybackError(.unknown, underlying: "line one\n\u{1B}[31mline two\u{202E}")
        #expect(error.underlying == "line one [31mline two")
    }

    @Test func codableRoundTrip() throws {
        let error = PlaybackError(.httpRetryable, httpStatus: 429, retryAfter: .seconds(12), underlying: "log")
        let data = try JSONEncoder().encode(error)
        let decoded = try JSONDecoder().decode(PlaybackError.self, from: data)
        #expect(decoded == error)
        #expect(decoded.retryAfter == .seconds(12))
    }
}

// MARK: - Texts

@Suite struct PlaybackErrorTextTests {
    @Test(arguments: PlaybackError.Code.allCases, Language.allCases)
    func everyCodeHasAllThreeTexts(code: PlaybackError.Code, language: Language) {
        for error in [PlaybackError(code), sample(code)] {
            let text = error.text(in: language)
            #expect(!text.title.trimmingCharacters(in: .whitespaces).isEmpty, "\(code) \(language)")
            #expect(!text.message.trimmingCharacters(in: .whitespaces).isEmpty, "\(code) \(language)")
            #expect(!text.recoverySuggestion.trimmingCharacters(in: .whitespaces).isEmpty, "\(code) \(language)")
            #expect(error.title(in: language) == text.title)
            #expect(error.message(in: language) == text.message)
            #expect(error.recoverySuggestion(in: language) == text.recoverySuggestion)
            // Titles are short: 2-4 words.
            let words = text.title.split(separator: " ").count
            #expect((2...4).contains(words), "\(code) \(language) title: \(text.title)")
        }
    }

    @Test(arguments: PlaybackError.Code.allCases)
    func russianIsATranslation(code: PlaybackError.Code) {
        for error in [PlaybackError(code), sample(code)] {
            let en = error.text(in: .english)
            let ru = error.text(in: .russian)
            #expect(ru.title != en.title)
            #expect(ru.message != en.message)
            #expect(ru.recoverySuggestion != en.recoverySuggestion)
            #expect(containsCyrillic(ru.title), "\(code): \(ru.title)")
            #expect(containsCyrillic(ru.message), "\(code): \(ru.message)")
            #expect(containsCyrillic(ru.recoverySuggestion), "\(code): \(ru.recoverySuggestion)")
            #expect(!containsCyrillic(en.title + en.message + en.recoverySuggestion), "\(code)")
        }
    }

    @Test(arguments: Language.allCases)
    func titlesAndMessagesAreUniquePerLanguage(language: Language) {
        var titles: [String: PlaybackError.Code] = [:]
        var messages: [String: PlaybackError.Code] = [:]
        for code in PlaybackError.Code.allCases {
            let text = sample(code).text(in: language)
            if let other = titles[text.title] { Issue.record("\(code) and \(other) share title \(text.title)") }
            if let other = messages[text.message] { Issue.record("\(code) and \(other) share message \(text.message)") }
            titles[text.title] = code
            messages[text.message] = code
            // Bare codes (no typed details) must be distinct too.
            let bare = PlaybackError(code).text(in: language).message
            if let other = messages[bare], other != code { Issue.record("\(code) and \(other) share message \(bare)") }
        }
    }

    @Test func plainWording() {
        let missing = PlaybackError(.missingAudioURL).text(in: .english)
        #expect(missing.message == "This episode doesn't have audio available")
        #expect(missing.title == "No Audio")
        #expect(PlaybackError(.connectionFailed).message(in: .english) == "Unable to load. Check your connection.")
        #expect(PlaybackError(.offline).title(in: .russian) == "Нет подключения к интернету")
        #expect(PlaybackError(.offline).recoverySuggestion(in: .russian).hasPrefix("Проверьте подключение к интернету"))
        #expect(PlaybackError(.streamUnavailable).message(in: .russian) == "Радиопоток временно недоступен.")
        #expect(PlaybackError(.streamUnavailable).recoverySuggestion(in: .russian).hasPrefix("Попробуйте позже"))
        #expect(PlaybackError(.connectionTimeout).title(in: .russian) == "Превышено время ожидания")
        #expect(PlaybackError(.audioOutputLost).title(in: .russian) == "Воспроизведение прервано")
    }

    @Test(arguments: Language.allCases)
    func audioOutputTexts(language: Language) {
        let unavailable = PlaybackError(.audioOutputUnavailable).text(in: language)
        #expect(unavailable.recoverySuggestion.contains("--output wav:FILE"))
        #expect(unavailable.recoverySuggestion.contains("PulseAudio"))
        #expect(unavailable.recoverySuggestion.contains("PipeWire"))
        let lost = PlaybackError(.audioOutputLost).text(in: language)
        switch language {
        case .english:
            #expect(lost.message.contains("on hold"))
            #expect(lost.recoverySuggestion.contains("resumes when the sound server is back"))
        case .russian:
            #expect(lost.message.contains("приостановлено"))
            #expect(lost.recoverySuggestion.contains("продолжится"))
        }
    }

    @Test(arguments: Language.allCases)
    func httpStatusesAreDistinguished(language: Language) throws {
        func message(_ status: Int) throws -> String {
            try #require(PlaybackError.from(httpStatus: status)).message(in: language)
        }
        // Retryable: too many requests, busy/unavailable, timeout, server fault.
        let tooMany = try message(429)
        let busy = try message(503)
        let timeout = try message(408)
        #expect(Set([tooMany, busy, timeout, try message(500)]).count == 4)
        for status in [502, 503, 504] {
            let text = try message(status)
            #expect(text.contains(String(status)))
            #expect(text.replacingOccurrences(of: String(status), with: "") == busy.replacingOccurrences(of: "503", with: ""))
        }
        // 401 vs 403, 404 vs 410.
        #expect(try message(401) != message(403).replacingOccurrences(of: "403", with: "401"))
        #expect(try message(404) != message(410).replacingOccurrences(of: "410", with: "404"))
        // The status number is the only detail, and it is shown.
        for status in [400, 401, 403, 404, 408, 410, 418, 429, 500, 502, 503, 504] {
            #expect(try message(status).contains(String(status)))
        }
        if language == .english {
            #expect(tooMany.contains("too many requests"))
            #expect(busy.contains("busy or temporarily unavailable"))
            #expect(busy.contains("The server answered with status 503."))
            #expect(timeout.contains("timed out"))
            #expect(try message(410).contains("removed"))
            #expect(try message(401).contains("signing in"))
        }
    }

    @Test func invalidTransitionNamesActionAndState() {
        let error = PlaybackError.invalidTransition(.pause, in: .preparing)
        #expect(error.message(in: .english) == "Pause isn't possible while loading.")
        #expect(error.message(in: .russian) == "Нельзя поставить на паузу во время загрузки.")
        #expect(PlaybackError(.invalidTransition).message(in: .english) == "That action isn't possible right now.")
        #expect(PlaybackError.invalidTransition(.reset, in: .idle).message(in: .russian)
            == "Нельзя сбросить плеер, когда ничего не воспроизводится.")
        #expect(PlaybackError.invalidTransition(.seek, in: .finished).message(in: .english)
            == "Seeking isn't possible after playback has finished.")
    }

    @Test(arguments: Language.allCases)
    func everyRefusedTransitionReadsDifferently(language: Language) {
        var seen: Set<String> = []
        for action in PlayerAction.allCases {
            for state in PlayerState.Name.allCases {
                let message = PlaybackError.invalidTransition(action, in: state).message(in: language)
                #expect(seen.insert(message).inserted, "duplicate: \(message)")
                // Words, not identifiers.
                #expect(!message.contains(state.rawValue) || state.rawValue == state.rawValue.lowercased())
                #expect(!message.contains("retryNow") && !message.contains("cancelRetry"))
                #expect(!message.contains("preparingCrossfade") && !message.contains("crossfadePaused"))
            }
        }
    }

    @Test(arguments: Language.allCases)
    func noJargonInTexts(language: Language) {
        for error in allTextVariants() {
            let text = error.text(in: language)
            for field in [text.title, text.message, text.recoverySuggestion] {
                for word in ["errno", "POSIX", "NSError", "HTTP", "Optional(", "nil", "\\(", "%@"] {
                    #expect(!field.contains(word), "\(error.errorType) \(language): \(field)")
                }
            }
        }
    }
}

// MARK: - Conversion

@Suite struct PlaybackErrorConversionTests {
    @Test func playbackErrorPassesThrough() {
        let original = PlaybackError(.httpRetryable, httpStatus: 429, retryAfter: .seconds(3), underlying: "kept")
        let converted = PlaybackError.from(original)
        #expect(converted == original)
        #expect(converted.underlying == "kept")
        let any: any Error = original
        #expect(PlaybackError.from(any).retryAfter == .seconds(3))
    }

    @Test func cancellation() {
        #expect(PlaybackError.from(CancellationError()).code == .cancelled)
    }

    @Test func decodingErrorIsMalformedData() throws {
        let bad = Data(#"{"value": "#.utf8)
        let error = try #require(throws: (any Error).self) { try JSONDecoder().decode(DecodableProbe.self, from: bad) }
        #expect(error is DecodingError)
        #expect(PlaybackError.from(error).code == .malformedData)

        let wrongType = Data(#"{"value": "seven"}"#.utf8)
        let error2 = try #require(throws: (any Error).self) {
            try JSONDecoder().decode(DecodableProbe.self, from: wrongType)
        }
        #expect(PlaybackError.from(error2).code == .malformedData)
    }

    @Test(arguments: [
        (POSIXErrorCode.ENOENT, PlaybackError.Code.fileNotFound),
        (.EACCES, .permissionDenied),
        (.EPERM, .permissionDenied),
        (.ECONNREFUSED, .connectionFailed),
        (.ETIMEDOUT, .connectionTimeout),
        (.ECONNRESET, .connectionLost),
        (.EPIPE, .connectionLost),
        (.ENETUNREACH, .offline),
        (.EHOSTUNREACH, .offline),
        (.EIO, .corruptData),
        (.ECANCELED, .cancelled),
    ])
    func posixErrors(errno: POSIXErrorCode, expected: PlaybackError.Code) {
        #expect(PlaybackError.from(POSIXError(errno)).code == expected)
        #expect(PlaybackError.from(NSError(domain: NSPOSIXErrorDomain, code: Int(errno.rawValue))).code == expected)
        #expect(PlaybackError.from(errno: errno.rawValue).code == expected)
    }

    @Test func posixErrorInNSError() {
        let error = NSError(domain: NSPOSIXErrorDomain, code: Int(ENOENT))
        #expect(PlaybackError.from(error).code == .fileNotFound)
        #expect(PlaybackError.from(errno: ENOMEM).code == .unknown)
        #expect(PlaybackError.from(errno: ENOMEM).underlying == "errno \(ENOMEM)")
    }

    @Test func cocoaFileErrors() {
        #expect(PlaybackError.from(NSError(domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError)).code == .fileNotFound)
        #expect(PlaybackError.from(NSError(domain: NSCocoaErrorDomain, code: NSFileNoSuchFileError)).code == .fileNotFound)
        #expect(PlaybackError.from(NSError(domain: NSCocoaErrorDomain, code: NSFileReadNoPermissionError)).code == .permissionDenied)
        #expect(PlaybackError.from(CocoaError(.fileReadNoSuchFile)).code == .fileNotFound)
        #expect(PlaybackError.from(CocoaError(.fileReadNoPermission)).code == .permissionDenied)
        #expect(PlaybackError.from(CocoaError(.fileReadCorruptFile)).code == .corruptData)
        #expect(PlaybackError.from(NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError)).code == .cancelled)
        // A Cocoa code we do not map is unknown, not a guess.
        #expect(PlaybackError.from(NSError(domain: NSCocoaErrorDomain, code: NSFileWriteOutOfSpaceError)).code == .unknown)
    }

    @Test(arguments: [
        (-1009, PlaybackError.Code.offline),
        (-1001, .connectionTimeout),
        (-1003, .dnsFailure),
        (-1004, .connectionFailed),
        (-1005, .connectionLost),
        (-1200, .tlsFailure),
        (-1202, .tlsFailure),
        (-999, .cancelled),
        (-1100, .fileNotFound),
        (-1234567, .unknown),
    ])
    func urlLoadingErrors(code: Int, expected: PlaybackError.Code) {
        #expect(PlaybackError.from(NSError(domain: "NSURLErrorDomain", code: code)).code == expected)
    }

    @Test func unknownErrorKeepsTextOnlyInUnderlying() {
        let converted = PlaybackError.from(DescribedError(description: "disk says zork-42"))
        #expect(converted.code == .unknown)
        #expect(converted.underlying?.contains("zork-42") == true)
        for language in Language.allCases {
            let text = converted.text(in: language)
            #expect(!(text.title + text.message + text.recoverySuggestion).contains("zork"))
        }
        #expect(!converted.errorType.contains("zork"))
    }

    @Test func readingAMissingFileIsFileNotFound() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tonearm-missing-\(UUID().uuidString)")
            .appendingPathComponent("nothing.mp3")
        let error = try #require(throws: (any Error).self) { try Data(contentsOf: url) }
        #expect(PlaybackError.from(error).code == .fileNotFound)

        let error2 = try #require(throws: (any Error).self) {
            try FileManager.default.attributesOfItem(atPath: url.path)
        }
        #expect(PlaybackError.from(error2).code == .fileNotFound)

        let error3 = try #require(throws: (any Error).self) { try FileHandle(forReadingFrom: url) }
        #expect(PlaybackError.from(error3).code == .fileNotFound)
    }

    @Test func readingAnUnreadableFileIsPermissionDenied() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-locked-\(UUID().uuidString).mp3")
        try Data("audio".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path) }

        // root ignores file modes, so the read succeeds and there is nothing to convert.
        // The mapping itself is still covered by the EACCES and Cocoa cases above.
        guard getuid() != 0 else { return }
        let error = try #require(throws: (any Error).self) { try Data(contentsOf: url) }
        #expect(PlaybackError.from(error).code == .permissionDenied)
    }

    @Test func httpStatuses() throws {
        for status in [401, 403] {
            let error = try #require(PlaybackError.from(httpStatus: status))
            #expect(error.code == .httpUnauthorized)
            #expect(error.httpStatus == status)
            #expect(!error.isRetryable)
        }
        for status in [404, 410] {
            let error = try #require(PlaybackError.from(httpStatus: status))
            #expect(error.code == .httpNotFound)
            #expect(error.httpStatus == status)
        }
        for status in [408, 429, 500, 502, 503, 504] {
            let error = try #require(PlaybackError.from(httpStatus: status))
            #expect(error.code == .httpRetryable)
            #expect(error.isRetryable)
            #expect(error.httpStatus == status)
        }
        for status in [400, 418] {
            let error = try #require(PlaybackError.from(httpStatus: status))
            #expect(error.code == .httpClientError)
            #expect(error.disposition == .final)
        }
        for status in [100, 200, 204, 301, 304] {
            #expect(PlaybackError.from(httpStatus: status) == nil, "\(status)")
        }
        for status in PlaybackError.retryableHTTPStatuses {
            #expect(PlaybackError.from(httpStatus: status)?.isRetryable == true, "\(status)")
        }
    }

    @Test func retryAfterIsCarried() throws {
        let date = Date(timeIntervalSince1970: 784111777)
        let busy = try #require(PlaybackError.from(httpStatus: 503, retryAfter: .seconds(120)))
        #expect(busy.retryAfter == .seconds(120))
        let limited = try #require(PlaybackError.from(httpStatus: 429, retryAfter: .date(date)))
        #expect(limited.retryAfter == .date(date))
        #expect(PlaybackError.from(httpStatus: 503)?.retryAfter == nil)
    }
}

// MARK: - Privacy

@Suite struct PlaybackErrorPrivacyTests {
    static let canaryURL = "https://alice:s3cret@radio.example.com/live?token=CANARY123"
    static let canaryPath = "/home/alice/Music/Secret Song.mp3"
    static let canaryTitle = "Canary Title Ω"
    static let forbidden = [
        "CANARY123", "token", "s3cret", "alice", "/home/", "Secret Song", "Canary Title", "radio.example.com",
        "https://", "Music/",
    ]

    private func assertClean(_ error: PlaybackError, sourceLocation: SourceLocation = #_sourceLocation) {
        for language in Language.allCases {
            let text = error.text(in: language)
            for field in [text.title, text.message, text.recoverySuggestion, error.errorType] {
                for canary in Self.forbidden {
                    #expect(
                        !field.lowercased().contains(canary.lowercased()),
                        "\(canary) leaked into \(error.errorType) \(language): \(field)",
                        sourceLocation: sourceLocation)
                }
            }
        }
    }

    @Test func canariesStayInUnderlyingOnly() {
        let leaky = DescribedError(
            description: "failed \(Self.canaryURL) reading \(Self.canaryPath) for \"\(Self.canaryTitle)\"")
        let converted = PlaybackError.from(leaky)
        #expect(converted.code == .unknown)
        // Kept for logs...
        #expect(converted.underlying?.contains("CANARY123") == true)
        #expect(converted.underlying?.contains("Secret Song") == true)
        // ...but never shown.
        assertClean(converted)
    }

    @Test(arguments: PlaybackError.Code.allCases)
    func everyCodeKeepsCanariesOut(code: PlaybackError.Code) {
        let underlying = "\(Self.canaryURL) \(Self.canaryPath) \(Self.canaryTitle)"
        assertClean(PlaybackError(code, underlying: underlying))
        let typed = sample(code)
        assertClean(
            PlaybackError(
                code, httpStatus: typed.httpStatus, retryAfter: .seconds(5), rejectedAction: typed.rejectedAction,
                rejectedState: typed.rejectedState, underlying: underlying))
    }

    @Test func convertedFoundationErrorsKeepCanariesOut() {
        let userInfo: [String: Any] = [
            NSLocalizedDescriptionKey: "Could not open \(Self.canaryURL)",
            NSFilePathErrorKey: Self.canaryPath,
            "NSErrorFailingURLStringKey": Self.canaryURL,
        ]
        let errors: [any Error] = [
            NSError(domain: "NSURLErrorDomain", code: -1009, userInfo: userInfo),
            NSError(domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError, userInfo: userInfo),
            NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES), userInfo: userInfo),
            NSError(domain: "Canary Title Ω", code: 7, userInfo: userInfo),
        ]
        for error in errors {
            let converted = PlaybackError.from(error)
            #expect(converted.code != .malformedData)
            assertClean(converted)
        }
    }

    @Test func everyTextVariantIsFreeOfCanaries() {
        for error in allTextVariants() { assertClean(error) }
    }
}
