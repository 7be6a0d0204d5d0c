import Foundation
import PlayerCore

/// Reads `<itunes:duration>` in the forms feeds really use.
///
/// Accepted: plain seconds (`3600`, `3600.5`), `MM:SS` (`59:30`) and `H:MM:SS` (`1:02:03`,
/// `01:02:03`, `1:2:3`), milliseconds on the last part (`00:00:00.123`), with whitespace around
/// the text or the parts (`1 : 02 : 03`). That is every form AntennaPod's parser reads that is not
/// one of the refusals below.
///
/// Decisions:
/// - The first part of a colon form is not bounded: `75:30` is 75 minutes 30 seconds, and
///   `200:00:00` is 200 hours (then refused as longer than `maxSeconds`). Generators that count
///   minutes past 59 write exactly this, and the meaning is unambiguous.
/// - The later parts must be below 60 (`10:61` and `1:75:00` are refused, where AntennaPod adds
///   them up): there the text is not a clock reading, and guessing could be off by an hour.
/// - Two parts are minutes and seconds (`8:30` is 510 seconds), as Apple's spec says; AntennaPod
///   reads hours and minutes only in its own settings, never in feeds.
/// - Only the last part may have a fraction (`59:30.5`), written as digits: `1.5e3` is refused
///   (AntennaPod's float parsing makes it 25 minutes).
/// - Zero means "unknown" in feeds (generators write `0` or `00:00:00` when they do not know), so
///   it gives nil, like negatives (which AntennaPod keeps), signs, garbage, non-finite numbers and
///   anything over `maxSeconds`.
package enum ITunesDuration {
    /// Longer than any episode: 7 days. A larger value is a generator's bug (often milliseconds).
    package static let maxSeconds: TimeInterval = 7 * 24 * 3600

    /// Seconds, or nil when the text is not a usable duration.
    package static func seconds(from text: String) -> TimeInterval? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= 32 else { return nil }
        let total = trimmed.utf8.allSatisfy { $0 < 0x80 } ? secondsOfASCII(trimmed) : secondsByCharacters(trimmed)
        guard let total, total > 0, total <= maxSeconds else { return nil }
        return total
    }

    /// The rule over characters, for any text (the parts split at `:` and trimmed of spaces).
    package static func secondsByCharacters(_ trimmed: String) -> TimeInterval? {
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
            .map { $0.trimmingWhitespace(newlines: false) }
        return total(of: parts)
    }

    /// The same rule over the bytes of ASCII text, where every character is one byte (but CR LF,
    /// which no rule here accepts) and the only spaces are space and tab: a feed has thousands of
    /// durations, and splitting them by characters was most of their cost.
    package static func secondsOfASCII(_ trimmed: String) -> TimeInterval? {
        let bytes = Array(trimmed.utf8)
        var parts: [String] = []
        var start = 0
        for end in bytes.indices where bytes[end] == UInt8(ascii: ":") {
            parts.append(trimmedPart(bytes[start..<end]))
            start = end + 1
        }
        parts.append(trimmedPart(bytes[start...]))
        return total(of: parts)
    }

    private static func trimmedPart(_ bytes: ArraySlice<UInt8>) -> String {
        let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// Hours, minutes and seconds (as many as there are parts) added up; nil when a part is unreadable.
    private static func total(of parts: [String]) -> TimeInterval? {
        guard parts.count <= 3 else { return nil }
        var total: TimeInterval = 0
        for (position, part) in parts.enumerated() {
            let isLast = position == parts.count - 1
            guard let value = isLast ? decimal(part) : integer(part) else { return nil }
            if position > 0, value >= 60 { return nil }
            total = total * 60 + value
        }
        return total
    }

    /// ASCII digits only (no sign, no spaces inside).
    private static func integer(_ text: String) -> TimeInterval? {
        guard isDigits(text.utf8) else { return nil }
        return TimeInterval(text)
    }

    /// Digits with at most one `.` followed by digits.
    private static func decimal(_ text: String) -> TimeInterval? {
        let bytes = text.utf8
        let dot = bytes.firstIndex(of: UInt8(ascii: "."))
        guard isDigits(bytes[..<(dot ?? bytes.endIndex)]) else { return nil }
        // A second dot is not a digit.
        if let dot, !isDigits(bytes[bytes.index(after: dot)...]) { return nil }
        guard let value = TimeInterval(text), value.isFinite else { return nil }
        return value
    }

    private static func isDigits(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
