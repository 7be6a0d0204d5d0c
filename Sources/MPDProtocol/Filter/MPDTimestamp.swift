/// The time stamps `modified-since` and `added-since` take, read as MPD's `ParseTimeStamp`
/// does: ISO 8601 (`2024-05-01`, `2024-05-01T12:30`, `2024-05-01T12:30:15Z`,
/// `2024-05-01T12:30:15+02:00`; no zone is UTC), else a whole number of seconds since 1970.
/// Pure arithmetic, so it reads the same on every machine whatever its time zone.
public enum MPDTimestamp {
    /// Unix seconds, or the client's `ACK [2@…]`.
    public static func parse(_ text: String) throws(MPDAck) -> Int64 {
        if let time = iso8601(Array(text.utf8)) { return time }
        let bytes = text.utf8
        if !bytes.isEmpty, bytes.count <= 18, bytes.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int64(text) { return value }
        throw MPDAck(.argument, "Failed to parse date")
    }

    /// Unix seconds as mpd prints `Last-Modified`: `2024-05-01T12:30:15Z`, in UTC, whole seconds
    /// (a fraction is cut). Pure arithmetic (the civil date of a day count): a date formatter made
    /// per song cost more than the rest of a `search` answer.
    public static func format(_ seconds: Double) -> String {
        let whole = Int64(seconds.isFinite ? seconds.rounded(.down) : 0)
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = whole - days * 86_400
        // Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's civil_from_days).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : String(value) }
        let yearText = year >= 0 && year < 1000 ? String(repeating: "0", count: 4 - String(year).count) + String(year) : String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    private static func iso8601(_ s: [UInt8]) -> Int64? {
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= s.count else { return nil }
            var value = 0
            for byte in s[i..<(i + count)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            i += count
            return value
        }
        func accept(_ byte: UInt8) -> Bool {
            guard i < s.count, s[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), accept(0x2D), let month = digits(2), accept(0x2D), let day = digits(2) else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        var seconds = 0
        if accept(0x54) {  // T
            guard let hour = digits(2), hour < 24 else { return nil }
            var minute = 0
            var second = 0
            let colon = accept(0x3A)
            if let m = digits(2) {
                minute = m
                if !colon || accept(0x3A) {
                    if let sec = digits(2) { second = sec } else if colon { return nil }
                }
            } else if colon {
                return nil
            }
            guard minute < 60, second < 61 else { return nil }
            seconds = hour * 3600 + minute * 60 + second
        }
        var offset = 0
        if accept(0x5A) {  // Z
        } else if i < s.count, s[i] == 0x2B || s[i] == 0x2D {
            let sign = s[i] == 0x2D ? -1 : 1
            i += 1
            guard let hours = digits(2), hours < 24 else { return nil }
            _ = accept(0x3A)
            let minutes = digits(2) ?? 0
            guard minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard i == s.count else { return nil }
        return Int64(daysFromCivil(year: year, month: month, day: day)) * 86_400 + Int64(seconds - offset)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
