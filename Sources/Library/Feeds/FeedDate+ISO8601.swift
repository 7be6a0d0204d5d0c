import Foundation

/// ISO 8601 and RFC 3339 as feeds write them (Atom's `<updated>`, `dc:date`, and some `<pubDate>`s).
///
/// Read: `2024-03-01`, `2024-03-01T10:00`, `2024-03-01T10:00:00.963870Z`, `2024-03-01 10:00:00+02:00`,
/// a fraction of any length (kept, not rounded to milliseconds), `,` as its mark, a zone after a
/// space (`10:00:00.96 +0700`), a date with only a zone (`2024-03-01+0200`), `/` between the date's
/// fields, one-digit months, days and hours, a zone name (`10:00:00 UTC`, `GMT+02:00`), and `24:00`
/// as the end of the day. No zone, or an unknown name, means UTC. Once the date, the time and any
/// zone are read, text after a space or an opening bracket is ignored (`+01:00[Europe/Paris]`,
/// `Z (UTC)`); text glued to them is not, since there the date itself is malformed.
extension FeedDate {
    /// `YYYY-` or `YYYY/` at the start.
    static func looksLikeISO8601(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(5))
        return bytes.count == 5 && bytes[0..<4].allSatisfy(isDigit) && (bytes[4] == ascii("-") || bytes[4] == ascii("/"))
    }

    static func parseISO8601(_ text: String) -> Date? {
        var scanner = DateScanner(Array(text.utf8))
        var parts = Parts()
        guard let year = scanner.number(digits: 4...4) else { return nil }
        let separator = scanner.next()
        guard separator == ascii("-") || separator == ascii("/"), let month = scanner.number(digits: 1...2),
            scanner.next() == separator, let day = scanner.number(digits: 1...2)
        else { return nil }
        (parts.year, parts.month, parts.day) = (year, month, day)

        if scanner.peek == ascii("T") || scanner.peek == ascii("t") {
            scanner.index += 1
            guard readISOClock(&scanner, into: &parts) else { return nil }
        } else if let byte = scanner.peek, isSpace(byte), scanner.digitAfterSpaces {
            scanner.skipSpaces()
            guard readISOClock(&scanner, into: &parts) else { return nil }
        }
        let beforeSpaces = scanner.index
        scanner.skipSpaces()
        let beforeZone = scanner.index
        guard readISOZone(&scanner, into: &parts) else { return nil }
        if scanner.index == beforeZone { scanner.index = beforeSpaces }
        // What follows a complete date is a comment or a zone identifier, unless it is glued on.
        if let byte = scanner.peek, !(isSpace(byte) || byte == ascii("(") || byte == ascii("[")) { return nil }
        return makeDate(parts)
    }

    /// `10:00`, `10:00:00`, `10:00:00.5`, `10:00:00,123456789`.
    private static func readISOClock(_ scanner: inout DateScanner, into parts: inout Parts) -> Bool {
        guard let hour = scanner.number(digits: 1...2), scanner.next() == ascii(":"), let minute = scanner.number(digits: 2...2)
        else { return false }
        parts.hour = hour
        parts.minute = minute
        guard scanner.peek == ascii(":") else { return true }
        scanner.index += 1
        guard let second = scanner.number(digits: 2...2) else { return false }
        parts.second = second
        guard scanner.peek == ascii(".") || scanner.peek == ascii(",") else { return true }
        scanner.index += 1
        let digits = scanner.run(while: isDigit)
        guard !digits.isEmpty else { return false }
        // Digits past the nanoseconds say nothing a Date can hold.
        parts.fraction = Double("0." + String(decoding: digits.prefix(9), as: UTF8.self)) ?? 0
        return true
    }

    /// `Z`, `+02:00`, `-0500`, `+05`, or a name (`UTC`, `GMT+02:00`); nothing is fine too.
    /// False for a malformed offset.
    private static func readISOZone(_ scanner: inout DateScanner, into parts: inout Parts) -> Bool {
        if scanner.peek == ascii("Z") || scanner.peek == ascii("z") {
            let after = scanner.index + 1
            // `Z` alone, not the start of a word such as `Zulu` (a name, read below).
            if after == scanner.bytes.count || !isLetter(scanner.bytes[after]) {
                scanner.index = after
                parts.offsetMinutes = 0
                return true
            }
        }
        if scanner.peek == ascii("+") || scanner.peek == ascii("-") {
            let sign = scanner.next()
            let digits = scanner.run { isDigit($0) || $0 == ascii(":") }
            guard let offset = numericOffset(Substring(String(decoding: digits, as: UTF8.self))) else { return false }
            parts.offsetMinutes = sign == ascii("-") ? -offset : offset
            return true
        }
        let start = scanner.index
        let name = scanner.run(while: isLetter)
        guard !name.isEmpty else { return true }
        let word = String(decoding: name, as: UTF8.self).lowercased()
        guard let base = zoneOffsets[word] else {
            // An unknown word is no zone: UTC, and the word is left as trailing text.
            scanner.index = start
            return true
        }
        parts.offsetMinutes = base
        if scanner.peek == ascii("+") || scanner.peek == ascii("-") {
            return readISOZone(&scanner, into: &parts)
        }
        return true
    }
}

/// A cursor over the UTF-8 bytes of an ISO 8601 date.
private struct DateScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }
    var peek: UInt8? { isAtEnd ? nil : bytes[index] }

    /// True when spaces and then a digit come next.
    var digitAfterSpaces: Bool {
        var probe = index
        while probe < bytes.count, isSpace(bytes[probe]) { probe += 1 }
        return probe < bytes.count && isDigit(bytes[probe])
    }

    mutating func next() -> UInt8? {
        defer { index += 1 }
        return peek
    }

    mutating func skipSpaces() {
        while let byte = peek, isSpace(byte) { index += 1 }
    }

    mutating func run(while accepts: (UInt8) -> Bool) -> ArraySlice<UInt8> {
        let start = index
        while let byte = peek, accepts(byte) { index += 1 }
        return bytes[start..<index]
    }

    /// A run of ASCII digits whose length is in `digits`; nil (and nothing consumed) otherwise.
    mutating func number(digits: ClosedRange<Int>) -> Int? {
        let start = index
        let run = run(while: isDigit)
        guard digits.contains(run.count) else {
            index = start
            return nil
        }
        return run.reduce(0) { $0 * 10 + Int($1 - ascii("0")) }
    }
}

private func ascii(_ scalar: Unicode.Scalar) -> UInt8 { UInt8(ascii: scalar) }
private func isDigit(_ byte: UInt8) -> Bool { byte >= ascii("0") && byte <= ascii("9") }
private func isSpace(_ byte: UInt8) -> Bool { byte == ascii(" ") || byte == ascii("\t") || byte == ascii("\n") || byte == ascii("\r") }
private func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= ascii("a") && (byte | 0x20) <= ascii("z") }
