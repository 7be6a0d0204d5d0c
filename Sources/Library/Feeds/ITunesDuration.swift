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
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
            .map { $0.trimmingWhitespace(newlines: false) }
        guard parts.count <= 3 else { return nil }
        var total: TimeInterval = 0
        for (position, part) in parts.enumerated() {
            let isLast = position == parts.count - 1
            guard let value = isLast ? decimal(part) : integer(part) else { return nil }
            if position > 0, value >= 60 { return nil }
            total = total * 60 + value
        }
        guard total > 0, total <= maxSeconds else { return nil }
        return total
    }

    /// ASCII digits only (no sign, no spaces inside).
    private static func integer(_ text: String) -> TimeInterval? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return TimeInterval(text)
    }

    /// Digits with at most one `.` followed by digits.
    private static func decimal(_ text: String) -> TimeInterval? {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, let whole = pieces.first, integer(String(whole)) != nil else { return nil }
        if pieces.count == 2, integer(String(pieces[1])) == nil { return nil }
        guard let value = TimeInterval(text), value.isFinite else { return nil }
        return value
    }
}
