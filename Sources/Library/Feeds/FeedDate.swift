import Foundation
import PlayerCore

/// Reads the dates feeds write (`<pubDate>`, Atom's `<updated>`, `dc:date`, OPML `dateCreated`)
/// and writes RFC 822 dates.
///
/// RSS asks for RFC 822 (`Tue, 10 Jun 2003 04:00:00 GMT`), and feeds bend it every way; some write
/// ISO 8601 (`2024-03-01T10:00:00Z`) instead. Each form is read where it is written down (the RFC
/// 822 reader and the ISO 8601 reader). The aim is to read at least every date the widest-reading
/// podcast apps read, so that no episode is undated here that is dated there.
///
/// Parsed by hand, not with `DateFormatter`: one fixed pattern per shape would need dozens of
/// formatters tried in turn (slow for a 5,000-item feed), and `DateFormatter` is not `Sendable`,
/// whereas these pure functions are safe from any thread under Swift 6. Anything unreadable
/// gives nil: a feed's bad date is tolerated, never an error.
///
/// Decisions:
/// - No zone, or an unknown zone name, means UTC, as RFC 2822 says of unknown military zones.
/// - An impossible date or time (`31 Feb`, `25:00`, `10:61`) is nil, not rolled over into the next
///   month or day the way lenient parsers do: the text is wrong, and a guess would sort the episode
///   among the wrong ones. `24:00` with nothing after it is the end of the day, as ISO 8601 says.
/// - Years run from 1900 to 9999; anything else is a typo or a placeholder.
package enum FeedDate {
    /// The date `text` names, or nil.
    package static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingWhitespace()
        // Long enough for a weekday, month and zone all spelled out, plus a comment.
        guard !trimmed.isEmpty, trimmed.utf8.count <= 128 else { return nil }
        if looksLikeISO8601(trimmed) { return parseISO8601(trimmed) }
        return parseCanonicalRFC822(trimmed) ?? parseRFC822(trimmed)
    }

    /// `Tue, 10 Jun 2003 04:00:00 GMT`: RFC 822 with a four-digit year, in UTC.
    package static func rfc822String(from date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondsOfDay = total - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let weekday = ((days % 7) + 7 + 4) % 7  // 1970-01-01 was a Thursday (4; Sunday is 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdayAbbreviations[weekday]), \(two(day)) \(monthAbbreviations[month - 1]) \(year) "
            + "\(two(secondsOfDay / 3600)):\(two(secondsOfDay / 60 % 60)):\(two(secondsOfDay % 60)) GMT"
    }

    /// `2003-06-10T04:00:00Z`: ISO 8601 in UTC, whole seconds.
    package static func isoString(from date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondsOfDay = total - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T"
            + "\(two(secondsOfDay / 3600)):\(two(secondsOfDay / 60 % 60)):\(two(secondsOfDay % 60))Z"
    }

    /// The fields a reader found; `makeDate` checks them.
    struct Parts {
        var year: Int?
        var month: Int?
        var day: Int?
        var hour = 0
        var minute = 0
        var second = 0
        var fraction: Double = 0
        var offsetMinutes: Int?
    }

    /// `HH:MM`, `HH:MM:SS`, `HH:MM:SS.fff`.
    static func readClock(_ text: Substring, into parts: inout Parts) -> Bool {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3, fields[0].count <= 2, fields[1].count == 2 || fields[1].count == 1,
            let hour = Int(fields[0]), let minute = Int(fields[1])
        else { return false }
        parts.hour = hour
        parts.minute = minute
        if fields.count == 3 {
            let secondText = fields[2]
            let whole = secondText.prefix { $0 != "." }
            guard !whole.isEmpty, whole.count <= 2, let second = Int(whole) else { return false }
            parts.second = second
            if whole.count < secondText.count {
                guard let fraction = Double("0" + secondText[whole.endIndex...]) else { return false }
                parts.fraction = fraction
            }
        }
        return true
    }

    /// `0500`, `05`, `5`, `05:30` -> minutes east of UTC.
    static func numericOffset(_ text: Substring) -> Int? {
        let digits = text.filter { $0 != ":" }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count == 4 || digits.count == 2 || digits.count == 1,
            let value = Int(digits)
        else { return nil }
        let (hours, minutes) = digits.count == 4 ? (value / 100, value % 100) : (value, 0)
        guard hours <= 14, minutes < 60 else { return nil }
        return hours * 60 + minutes
    }

    // MARK: - Calendar arithmetic

    static func makeDate(_ parts: Parts) -> Date? {
        let endOfDay = parts.hour == 24 && parts.minute == 0 && parts.second == 0 && parts.fraction == 0
        guard let year = parts.year, let month = parts.month, let day = parts.day, (1900...9999).contains(year),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            (0...23).contains(parts.hour) || endOfDay, (0...59).contains(parts.minute), (0...60).contains(parts.second)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + parts.hour * 3600 + parts.minute * 60 + min(parts.second, 59)
            - (parts.offsetMinutes ?? 0) * 60
        return Date(timeIntervalSince1970: TimeInterval(seconds) + parts.fraction)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysFromCivil` (Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
