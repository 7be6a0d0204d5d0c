import Foundation
import Presentation
import Testing

@testable import PlayerCore

/// Error texts chosen by what failed as well as the code: a feed's dropped connection does not
/// talk about playback or promise a reconnect; playback keeps its texts; the open-breaker texts
/// name the host and say when it is tried again, in English and Russian.
@Suite("Operation-aware error texts")
struct OperationErrorTextsTests {
    static func containsCyrillic(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }
    }

    @Test func aFeedsDroppedConnectionIsNotAboutPlayback() {
        let error = PlaybackError(.connectionLost)
        let feed = error.text(in: .english, for: .feed)
        #expect(feed.message == "The server closed the connection before the podcast feed arrived.")
        for text in [feed.title, feed.message, feed.recoverySuggestion] {
            #expect(!text.localizedCaseInsensitiveContains("playback"))
            #expect(!text.localizedCaseInsensitiveContains("reconnect"))
            #expect(!text.localizedCaseInsensitiveContains("automatically"))
        }
        let ru = error.text(in: .russian, for: .feed)
        #expect(ru.message == "Сервер закрыл соединение, не передав ленту подкаста.")
        #expect(!ru.message.contains("воспроизведени") && !ru.recoverySuggestion.contains("переподключ"))
    }

    @Test func playbackTextsAreUnchanged() {
        for code in PlaybackError.Code.allCases {
            for language in Language.allCases {
                let error = PlaybackError(code)
                #expect(error.text(in: language, for: .playback) == error.text(in: language))
            }
        }
        #expect(PlaybackError(.connectionLost).message(in: .english) == "The connection dropped during playback.")
        #expect(
            PlaybackError(.connectionLost).recoverySuggestion(in: .english)
                == "Tonearm reconnects automatically. If it can't, check your connection.")
    }

    @Test(arguments: [ErrorOperation.feed, .download, .artwork], Language.allCases)
    func everyCodeHasFittingTextsForEveryOperation(operation: ErrorOperation, language: Language) {
        var messages: [String: PlaybackError.Code] = [:]
        for code in PlaybackError.Code.allCases {
            let text = PlaybackError(code).text(in: language, for: operation)
            #expect(!text.title.isEmpty && !text.message.isEmpty && !text.recoverySuggestion.isEmpty, "\(code)")
            #expect((2...4).contains(text.title.split(separator: " ").count), "\(code): \(text.title)")
            let all = text.title + text.message + text.recoverySuggestion
            if language == .english || language == .russian {
                #expect(Self.containsCyrillic(all) == (language == .russian), "\(code) \(operation): \(all)")
            }
            if language == .english {
                // Outside playback nothing is "during playback", and no fetch reconnects by itself.
                #expect(!all.contains("during playback") && !all.contains("reconnects"), "\(code) \(operation): \(all)")
            }
            if let other = messages[text.message] { Issue.record("\(code) and \(other) share \(text.message)") }
            messages[text.message] = code
        }
    }

    @Test func theOpenBreakerSaysWhichHostAndWhen() {
        let error = PlaybackError.circuitOpen(host: "feeds.example:8080", retryIn: 27.2)
        let en = error.text(in: .english, for: .feed)
        #expect(en.title == "Server Not Responding")
        #expect(en.message.contains("feeds.example:8080"))
        #expect(en.recoverySuggestion.contains("in 28 s"), "rounded up: \(en.recoverySuggestion)")
        let ru = error.text(in: .russian, for: .feed)
        #expect(ru.message.contains("feeds.example:8080") && ru.recoverySuggestion.contains("через 28 с"))
        let playing = error.text(in: .english)
        #expect(playing.message.hasPrefix("feeds.example:8080 failed several times in a row"))
        // The message names the host; the suggestion says when, in the same words in every language.
        #expect(playing.recoverySuggestion == "Tonearm tries it again in 28 s.")
        #expect(error.text(in: .russian).recoverySuggestion == "Tonearm снова попробует подключиться через 28 с.")
        #expect(PlaybackError.circuitOpen(host: "a.example", retryIn: 600).text(in: .english).recoverySuggestion.hasSuffix("in 10 min."))
        #expect(error.isRetryable && error.isRecoverable)
        let decoded = try? JSONDecoder().decode(PlaybackError.self, from: JSONEncoder().encode(error))
        #expect(decoded == error && decoded?.host == "feeds.example:8080")
    }
}
