import Foundation
import PlayerCore

/// A timer's texts (`timer.…` in the catalogs): its title, and what is wrong with one asked for.
package enum TimerTexts {
    /// "Timer 20:00"; "Timer" for one that counts up without end.
    package static func title(length: TimeInterval?, in language: Language) -> String {
        guard let length else { return Texts.string("timer.titleOpenEnded", in: language) }
        return Texts.format("timer.title", in: language, TimeText.clock(length))
    }
}

extension TimerSessionError {
    /// One or two sentences saying what is wrong and what to write instead.
    package func message(in language: Language) -> String {
        func t(_ key: String, _ arguments: any CVarArg...) -> String { Texts.format("timer.error.\(key)", in: language, arguments: arguments) }
        func typed(_ text: String) -> String { TextSanitizer.singleLine(text, maxLength: 40) }
        switch self {
        case .notADuration(let text): return t("notADuration", typed(text))
        case .longerThanADay(let seconds): return t("longerThanADay", TimeText.clock(seconds))
        case .lengthTooShort: return t("lengthTooShort")
        case .lengthAndOpenEnded: return t("lengthAndOpenEnded")
        case .intervalAndTimes: return t("intervalAndTimes")
        case .intervalTooShort(let every): return t("intervalTooShort", Self.seconds(every), Self.seconds(SessionFile.minimumBellInterval))
        case .bellAfterEnd(let bell, let length): return t("bellAfterEnd", TimeText.clock(bell), TimeText.clock(length))
        case .tooManyBells(let most): return t("tooManyBells", most)
        case .strikesOutOfRange(let strikes): return t("strikesOutOfRange", strikes)
        case .volumeOutOfRange(let layer, let volume): return t("volumeOutOfRange.\(layer.rawValue)", String(format: "%g", Double(volume)))
        case .noSound(let layer): return t("noSound.\(layer.rawValue)")
        case .missingFile(let layer, let path): return t("missingFile.\(layer.rawValue)", TextSanitizer.singleLine(path, maxLength: 200))
        }
    }

    /// Seconds as a plain number ("0.5", "1"): an interval too short is shorter than a clock shows.
    private static func seconds(_ value: TimeInterval) -> String { String(format: "%g", value) }
}
