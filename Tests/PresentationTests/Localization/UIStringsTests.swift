import Foundation
import PlayerCore
import Testing

@testable import Presentation

@Suite struct UIStringsTests {
    @Test(arguments: UIString.allCases)
    func everyKeyHasBothLanguages(_ key: UIString) {
        #expect(Texts.catalog.text(for: key.catalogKey, in: .english) != nil, "\(key.catalogKey)")
        #expect(Texts.catalog.text(for: key.catalogKey, in: .russian) != nil, "\(key.catalogKey)")
        let en = UIStrings.text(key, in: .english)
        let ru = UIStrings.text(key, in: .russian)
        #expect(!en.trimmingCharacters(in: .whitespaces).isEmpty)
        #expect(!ru.trimmingCharacters(in: .whitespaces).isEmpty)
        #expect(en != ru)
    }

    @Test func russianHasCyrillicWhereEnglishHasWords() {
        for key in UIString.allCases {
            let ru = UIStrings.text(key, in: .russian)
            #expect(ru.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }, "\(key)")
        }
    }

    @Test func formatSubstitutesOnce() {
        #expect(UIStrings.format(.retryResumesAt, in: .english, "12:34") == "Retry resumes at 12:34")
        #expect(UIStrings.format(.contextEpisode, in: .english, "%@ %d {1}") == "Episode: %@ %d {1}")
        #expect(UIStrings.format(.bufferFill, in: .russian, 42) == "Буфер 42%")
        #expect(UIStrings.format(.controlSeekForward, in: .english, 30) == "Forward 30 s")
    }

    @Test func aMissingOrMistypedArgumentLeavesTheTextUnformatted() {
        #expect(UIStrings.format(.contextEpisode, in: .english) == "Episode: %@")
        #expect(UIStrings.format(.bufferFill, in: .english, "42") == "Buffer %d%%")
        #expect(UIStrings.format(.contextEpisode, in: .english, 42) == "Episode: %@")
    }

    @Test func timeText() {
        #expect(TimeText.clock(754) == "12:34")
        #expect(TimeText.clock(3600) == "1:00:00")
        #expect(TimeText.clock(59.9) == "0:59")
        #expect(TimeText.clock(-3) == "0:00")
        #expect(TimeText.clock(.nan) == "0:00")
        #expect(TimeText.position(754, of: 3600) == "12:34 / 1:00:00")
        #expect(TimeText.position(5, of: nil) == "0:05")
    }
}
