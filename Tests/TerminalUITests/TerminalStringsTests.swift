import PlayerCore
import Presentation
import Testing

@testable import TerminalUI

/// Every terminal text is in every language's catalog: a missing one would show its key
/// (`terminal.…`) or, in another language, the English text.
@Suite struct TerminalStringsTests {
    static func texts(in language: Language) -> [String] {
        let keys: [TerminalStrings.Key] = [.nowPlaying, .help, .quit, .dismiss, .keys, .move, .nextTab, .open, .add, .search]
        let diagnostics: [TerminalStrings.Diagnostics] = [
            .total, .last24Hours, .last7Days, .retryable, .resolvedByRetry, .successRate, .nothingRetried, .topTypes,
            .topOperations, .retriesByOperation,
        ]
        return keys.map { TerminalStrings.text($0, in: language) }
            + LibraryScreen.Tab.allCases.map { TerminalStrings.tab($0, in: language) }
            + diagnostics.map { TerminalStrings.diagnostics($0, in: language) }
            + KeyAction.allCases.map { TerminalStrings.actionName($0, in: language) }
            + [TerminalStrings.Prompt.station, .feed].map { TerminalStrings.prompt($0, in: language) }
            + [1, 2, 5].map { TerminalStrings.retriedOperations($0, in: language) }
            + [TerminalStrings.retryAvailable(key: "r", in: language)]
    }

    @Test(arguments: Language.allCases)
    func everyTextIsInTheCatalog(_ language: Language) {
        for text in Self.texts(in: language) {
            #expect(!text.isEmpty && !text.hasPrefix("terminal."), "\(text)")
        }
    }

    @Test func russianTextsAreRussian() {
        for (english, russian) in zip(Self.texts(in: .english), Self.texts(in: .russian)) {
            #expect(russian.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }, "\(english) -> \(russian)")
        }
    }

    @Test func countedTexts() {
        #expect(TerminalStrings.retriedOperations(1, in: .english) == "of 1 retried operation")
        #expect(TerminalStrings.retriedOperations(12, in: .english) == "of 12 retried operations")
        #expect(TerminalStrings.retriedOperations(21, in: .russian) == "из 21 операции с повторами")
        #expect(TerminalStrings.retriedOperations(11, in: .russian) == "из 11 операций с повторами")
        #expect(TerminalStrings.retriedOperations(3, in: .russian) == "из 3 операций с повторами")
        #expect(TerminalStrings.retryAvailable(key: "r", in: .russian) == "Можно повторить: нажмите r.")
    }
}
