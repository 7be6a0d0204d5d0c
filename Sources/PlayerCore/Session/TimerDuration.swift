import Foundation

/// How long a timer lasts, or when a bell rings in it, as a listener types it: `20m`, `90s`,
/// `1h30m`, `1:30:00` (or `30:00`, minutes and seconds), or plain seconds (`1200`, `2.5`).
///
/// Plain numbers are seconds here, unlike `--sleep`'s minutes: a bell time such as `--bells-at
/// 0,90` reads naturally in seconds, and every unit can be written out when meant otherwise.
public enum TimerDuration {
    /// The longest duration accepted: a day (the longest a session's clock may run for a bell).
    public static let maximum: TimeInterval = SessionFile.maximumBellTime

    /// Seconds for `text`, 0 included (a bell at the start); a typed error for anything else.
    public static func parse(_ text: String) throws(TimerSessionError) -> TimeInterval {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard let seconds = word.contains(":") ? clock(word) : word.allSatisfy(isNumberCharacter) ? number(word) : units(word) else {
            throw .notADuration(text)
        }
        guard seconds <= maximum else { throw .longerThanADay(seconds) }
        return seconds
    }

    /// A comma-separated list (`0,25m,30m,55m`), in the order given.
    public static func parseList(_ text: String) throws(TimerSessionError) -> [TimeInterval] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= SessionFile.maximumBellTimes else { throw .tooManyBells(SessionFile.maximumBellTimes) }
        var times: [TimeInterval] = []
        for part in parts { times.append(try parse(part)) }
        return times
    }

    private static func isNumberCharacter(_ c: Character) -> Bool { c.isASCII && (c.isNumber || c == ".") }

    /// A non-negative finite decimal: digits with at most one point, never empty.
    private static func number(_ text: some StringProtocol) -> TimeInterval? {
        guard !text.isEmpty, text.allSatisfy(isNumberCharacter), text.filter({ $0 == "." }).count <= 1, text != "." else { return nil }
        guard let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }

    /// `H:MM:SS` or `M:SS`: whole numbers, minutes and seconds under 60 after the first part.
    private static func clock(_ text: String) -> TimeInterval? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        var total: TimeInterval = 0
        for (index, part) in parts.enumerated() {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Double(String(part)) else { return nil }
            if index > 0 {
                guard part.count == 2, value < 60 else { return nil }
            }
            total = total * 60 + value
        }
        return total
    }

    /// `1h30m`, `90s`, `2.5m`: numbers each followed by `h`, `m` or `s`, largest unit first, each
    /// unit at most once.
    private static func units(_ text: String) -> TimeInterval? {
        let scale: [Character: TimeInterval] = ["h": 3_600, "m": 60, "s": 1]
        let order: [Character] = ["h", "m", "s"]
        var total: TimeInterval = 0
        var digits = ""
        var lastUnit = -1
        for character in text {
            if isNumberCharacter(character) {
                digits.append(character)
                continue
            }
            guard let unit = order.firstIndex(of: character), unit > lastUnit, let value = number(digits), let factor = scale[character] else {
                return nil
            }
            total += value * factor
            lastUnit = unit
            digits = ""
        }
        guard digits.isEmpty, lastUnit >= 0 else { return nil }
        return total
    }
}
