import Foundation
import PlayerCore
import Presentation
import Testing

@Suite struct UIStringsTests {
    @Test(arguments: UIString.allCases)
    func everyKeyHasBothLanguages(_ key: UIString) {
        let en = UIStrings.text(key, in: .english)
        let ru = UIStrings.text(key, in: .russian)
        #expect(!en.trimmingCharacters(in: .whitespaces).isEmpty)
        #expect(!ru.trimmingCharacters(in: .whitespaces).isEmpty)
        #expect(en != ru)
        #expect(placeholders(en) == placeholders(ru))
    }

    @Test func russianHasCyrillicWhereEnglishHasWords() {
        for key in UIString.allCases {
            let ru = UIStrings.text(key, in: .russian)
            #expect(ru.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }, "\(key)")
        }
    }

    @Test func formatSubstitutesOnce() {
        #expect(UIStrings.format(.retryResumesAt, in: .english, "12:34") == "Retry resumes at 12:34")
        #expect(UIStrings.format(.contextEpisode, in: .english, "{1} {2}") == "Episode: {1} {2}")
        #expect(UIStrings.format(.contextEpisode, in: .english) == "Episode: {1}")
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

    private func placeholders(_ text: String) -> [String] {
        var found: [String] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            found.append(String(rest[open...close]))
            rest = rest[rest.index(after: close)...]
        }
        return found.sorted()
    }
}
