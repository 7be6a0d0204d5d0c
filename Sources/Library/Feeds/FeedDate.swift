import Foundation

/// Reads the dates feeds write (`<pubDate>`, OPML `dateCreated`) and writes RFC 822 dates.
///
/// RSS asks for RFC 822 (`Tue, 10 Jun 2003 04:00:00 GMT`), and feeds bend it every way: numeric
/// zones (`+0000`, `-0500`, `+05:30`), the US zone names, no weekday or a wrong one, one-digit days,
/// two-digit years, no seconds, full month names, the month before the day, extra spaces or commas,
/// a zone comment (`+0000 (UTC)`), `AM`/`PM`; some write ISO 8601 (`2024-03-01T10:00:00Z`) instead,
/// read where that reader is written down. `24:00` with nothing after it is the end of the day, as
/// ISO 8601 says; any other impossible date or time (`31 Feb`, `25:00`) is nil, not rolled over.
///
/// Parsed by hand, not with `DateFormatter`: one fixed pattern per shape would need a dozen
/// formatters tried in turn (slow for a 5,000-item feed), and `DateFormatter` is not `Sendable`,
/// whereas these pure functions are safe from any thread under Swift 6. The weekday is ignored
/// (the date is what counts, and generators get the weekday wrong). Unknown zone names count as
/// UTC, as RFC 2822 says of unknown military zones. Anything else unreadable gives nil: a feed's
/// bad date is tolerated, never an error.
package enum FeedDate {
    /// The date `text` names, or nil.
    package static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 64 else { return nil }
        if looksLikeISO8601(trimmed) { return parseISO8601(trimmed) }
        return parseRFC822(trimmed)
    }

    /// `Tue, 10 Jun 2003 04:00:00 GMT`: RFC 822 with a four-digit year, in UTC.
    package static func rfc822String(from date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondsOfDay = total - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let weekday = ((days % 7) + 7 + 4) % 7  // 1970-01-01 was a Thursday (4; Sunday is 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdayNames[weekday]), \(two(day)) \(monthNames[month - 1]) \(year) "
            + "\(two(secondsOfDay / 3600)):\(two(secondsOfDay / 60 % 60)):\(two(secondsOfDay % 60)) GMT"
    }

    // MARK: - RFC 822 / 2822

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let fullMonthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]

    /// Zone names and their offsets from UTC in minutes: RFC 822's own, plus the European and
    /// Australian ones generators also write.
    static let zoneOffsets: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0, "est": -300, "edt": -240, "cst": -360, "cdt": -300, "mst": -420,
        "mdt": -360, "pst": -480, "pdt": -420, "bst": 60, "cet": 60, "cest": 120, "eet": 120, "eest": 180,
        "msk": 180, "ist": 330, "jst": 540, "aest": 600, "aedt": 660,
    ]

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

    private static func parseRFC822(_ text: String) -> Date? {
        var parts = Parts()
        var hasTime = false
        var sawPM = false
        var sawAM = false
        for raw in withoutComments(text).split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0.isNewline }) {
            var token = Substring(raw)
            if token.first?.isNumber == true, token.contains(":"), !hasTime {
                // `04:00:00`, `4:00`, and the glued `04:00:00GMT` / `04:00:00+0000`.
                let clockEnd = token.firstIndex { !($0.isNumber || $0 == ":" || $0 == ".") } ?? token.endIndex
                guard readClock(token[..<clockEnd], into: &parts) else { return nil }
                hasTime = true
                token = token[clockEnd...]
                if token.isEmpty { continue }
            }
            if token.first == "+" || token.first == "-" {
                guard let offset = numericOffset(token.dropFirst()) else { return nil }
                parts.offsetMinutes = token.first == "-" ? -offset : offset
            } else if token.allSatisfy({ $0.isASCII && $0.isNumber }) {
                guard let value = Int(token) else { return nil }
                if token.count <= 2, parts.day == nil {
                    parts.day = value
                } else if parts.year == nil, token.count == 4 || token.count == 2 {
                    // RFC 2822 4.3: two-digit years below 50 are 20xx, the rest 19xx.
                    parts.year = token.count == 4 ? value : (value < 50 ? 2000 + value : 1900 + value)
                } else {
                    return nil
                }
            } else if token.allSatisfy({ $0.isASCII && $0.isLetter }) || token.contains("+") || token.contains("-") {
                guard readWord(token, into: &parts, am: &sawAM, pm: &sawPM) else { return nil }
            } else {
                return nil
            }
        }
        if sawPM || sawAM {
            guard hasTime, (1...12).contains(parts.hour) else { return nil }
            if sawPM, parts.hour < 12 { parts.hour += 12 }
            if sawAM, parts.hour == 12 { parts.hour = 0 }
        }
        return makeDate(parts)
    }

    /// A word: a month, a weekday (ignored), `AM`/`PM`, a zone (`EST`, `GMT+0200`), or an unknown
    /// zone-like word (UTC). False for a second month.
    private static func readWord(_ token: Substring, into parts: inout Parts, am: inout Bool, pm: inout Bool) -> Bool {
        let word = token.lowercased()
        if let month = monthNumber(word) {
            guard parts.month == nil else { return false }
            parts.month = month
            return true
        }
        if word.count >= 3, weekdayNames.contains(where: { word.hasPrefix($0.lowercased()) }) { return true }
        if word == "am" { am = true; return true }
        if word == "pm" { pm = true; return true }
        // `GMT+0200`, `UTC-05:00`: a zone name followed by an offset.
        if let sign = word.firstIndex(where: { $0 == "+" || $0 == "-" }) {
            let name = String(word[..<sign])
            guard zoneOffsets[name] != nil, let offset = numericOffset(word[word.index(after: sign)...]) else { return false }
            parts.offsetMinutes = word[sign] == "-" ? -offset : offset
            return true
        }
        parts.offsetMinutes = zoneOffsets[word] ?? 0
        return true
    }

    /// `jun`, `june`, `sept` -> 6 / 6 / 9; nil for any other word.
    private static func monthNumber(_ word: String) -> Int? {
        if word == "sept" { return 9 }
        if word.count == 3, let index = monthNames.firstIndex(where: { $0.lowercased() == word }) { return index + 1 }
        if let index = fullMonthNames.firstIndex(of: word) { return index + 1 }
        return nil
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

    /// `0500`, `05`, `05:30` -> minutes.
    static func numericOffset(_ text: Substring) -> Int? {
        let digits = text.filter { $0 != ":" }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count == 4 || digits.count == 2 || digits.count == 1,
            let value = Int(digits)
        else { return nil }
        let (hours, minutes) = digits.count == 4 ? (value / 100, value % 100) : (value, 0)
        guard hours <= 14, minutes < 60 else { return nil }
        return hours * 60 + minutes
    }

    /// The text without `(comments)`.
    private static func withoutComments(_ text: String) -> String {
        guard text.contains("(") else { return text }
        var out = ""
        var depth = 0
        for character in text {
            if character == "(" { depth += 1 } else if character == ")" { depth = max(0, depth - 1) } else if depth == 0 { out.append(character) }
        }
        return out
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
