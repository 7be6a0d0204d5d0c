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
