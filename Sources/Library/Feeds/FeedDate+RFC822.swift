import Foundation

/// RFC 822 / 2822 as feeds bend it.
///
/// Read: numeric zones (`+0000`, `-0500`, `+05:30`, `GMT+0200`, `UTC-5`), zone names (`GMT`, `EST`,
/// `PDT`, `CEST`, spelled out as `Eastern Daylight Time`), a zone comment (`+0000 (UTC)`), no
/// weekday or a wrong one, a weekday in any language before a comma, one-digit days, ordinal days
/// (`June 10th`), two-digit years, no seconds, fractions of a second, full month names and the
/// names of other languages (`Sept`, `März`, `juin`), the month before the day, the year last
/// (`Wed May 25 12:33:00 2011`), `10-Jun-2003`, extra spaces or commas, `AM`/`PM`, words that are
/// none of these (`at`), and anything after a complete date.
///
/// Decisions:
/// - The weekday is ignored: the date is what counts, and generators get the weekday wrong.
/// - A numeric offset wins over a zone name: names are ambiguous, and `GMT +0200` means two
///   hours east. Of two names, the first counts.
/// - Two-digit years below 50 are 20xx, the rest 19xx (RFC 2822 4.3).
/// - Words that are none of the above are skipped (`at`, a weekday in another language).
/// - Once the day, month, year and time are read, a token that fits nowhere ends the date
///   (`… GMT garbage`, a second month); before that, such a token (a second month, a third
///   number, `#5`) makes the text no date, so `Tue, 10 Jun Jul 2003` is nil.
/// - A malformed offset (`+9900`) is nil unless a zone came before it.
extension FeedDate {
    static func parseRFC822(_ text: String) -> Date? {
        var reader = RFC822Reader()
        let tokens = rfc822Tokens(text)
        var index = 0
        while index < tokens.count {
            switch reader.read(tokens, at: &index) {
            case .next: continue
            case .end: index = tokens.count
            case .invalid: return nil
            }
        }
        return reader.date()
    }

    /// `Tue, 10 Jun 2003 04:00:00 GMT` or `... +0000`, the shape RSS's specification shows and
    /// most generators write, read straight from the bytes; nil for anything else (and for an
    /// impossible date), which `parseRFC822` then reads. Whatever this reads, `parseRFC822`
    /// reads the same (a test holds them together); it exists because tokenising every date
    /// was a tenth of the time a 5,000-item feed took to read.
    static func parseCanonicalRFC822(_ text: String) -> Date? {
        var reader = CanonicalReader(bytes: Array(text.utf8)[...])
        if reader.bytes.count > 5, reader.bytes.prefix(3).allSatisfy(CanonicalReader.isLetter), reader.bytes.dropFirst(3).starts(with: ", ".utf8) {
            reader.bytes.removeFirst(5)  // the weekday, ignored as everywhere
        }
        var parts = Parts()
        guard let day = reader.number(digits: 1...2), reader.skip(" "),
            let month = reader.word(letters: 3).flatMap(monthNumber), reader.skip(" "),
            let year = reader.number(digits: 4...4), reader.skip(" "),
            let hour = reader.number(digits: 2...2), reader.skip(":"), let minute = reader.number(digits: 2...2), reader.skip(":"),
            let second = reader.number(digits: 2...2), reader.skip(" "),
            let offset = reader.zone()
        else { return nil }
        (parts.day, parts.month, parts.year) = (day, month, year)
        (parts.hour, parts.minute, parts.second, parts.offsetMinutes) = (hour, minute, second, offset)
        return makeDate(parts)
    }

    /// The words and numbers of `text`, without comments and without a leading `word,` (a
    /// weekday, in whatever language: `Tue,`, `Dienstag,`, `mar.,`).
    private static func rfc822Tokens(_ text: String) -> [Substring] {
        var body = Substring(withoutComments(text))
        if let comma = body.firstIndex(of: ","), comma > body.startIndex, body[..<comma].allSatisfy({ $0.isLetter || $0 == "." }) {
            body = body[body.index(after: comma)...]
        }
        var tokens: [Substring] = []
        for token in body.split(whereSeparator: { $0 == "," || $0.isWhitespace }) {
            // `10-Jun-2003` and `10/Jun/03`, RFC 850's and the logs' dates.
            if token.first?.isASCIIDigit == true, token.contains(where: \.isLetter), !token.contains(":") {
                tokens += token.split { $0 == "-" || $0 == "/" }
            } else {
                tokens.append(token)
            }
        }
        return tokens
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
}

/// The byte-level reading behind `FeedDate.parseCanonicalRFC822`: each step consumes what it
/// read, or returns nil (false) and the date is left to the general reader.
private struct CanonicalReader {
    var bytes: ArraySlice<UInt8>

    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    mutating func skip(_ separator: Unicode.Scalar) -> Bool {
        guard bytes.first == UInt8(separator.value) else { return false }
        bytes.removeFirst()
        return true
    }

    /// A run of ASCII digits whose length is in `digits`.
    mutating func number(digits: ClosedRange<Int>) -> Int? {
        let run = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard digits.contains(run.count) else { return nil }
        bytes.removeFirst(run.count)
        return run.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// Exactly `letters` ASCII letters, lowercased.
    mutating func word(letters: Int) -> String? {
        let run = bytes.prefix(while: Self.isLetter)
        guard run.count == letters else { return nil }
        bytes.removeFirst(run.count)
        return String(decoding: run.map { $0 | 0x20 }, as: UTF8.self)
    }

    /// The rest of the text as a zone: `GMT`, `UT`, `UTC`, `Z` or `+hhmm`/`-hhmm`, in minutes east.
    mutating func zone() -> Int? {
        let rest = String(decoding: bytes, as: UTF8.self)
        bytes.removeAll()
        if ["gmt", "ut", "utc", "z"].contains(rest.lowercased()) { return 0 }
        guard rest.utf8.count == 5, let sign = rest.first, sign == "+" || sign == "-",
            let offset = FeedDate.numericOffset(rest.dropFirst())
        else { return nil }
        return sign == "-" ? -offset : offset
    }
}

/// Reads tokens one by one into a date's fields.
private struct RFC822Reader {
    enum Step { case next, end, invalid }

    private var parts = FeedDate.Parts()
    private var hasClock = false
    private var isPM: Bool?
    private var numericOffset: Int?
    private var namedOffset: Int?

    private var isComplete: Bool { parts.day != nil && parts.month != nil && parts.year != nil && hasClock }
    /// What a token that fits nowhere means: the end of a complete date, or no date.
    private var misfit: Step { isComplete ? .end : .invalid }

    func date() -> Date? {
        var parts = parts
        if let isPM {
            guard hasClock, (1...12).contains(parts.hour) else { return nil }
            if isPM, parts.hour < 12 { parts.hour += 12 }
            if !isPM, parts.hour == 12 { parts.hour = 0 }
        }
        parts.offsetMinutes = numericOffset ?? namedOffset
        return FeedDate.makeDate(parts)
    }

    mutating func read(_ tokens: [Substring], at index: inout Int) -> Step {
        var token = tokens[index]
        index += 1
        if token.first?.isASCIIDigit == true, token.contains(":") {
            // `04:00:00`, `4:00`, and the glued `04:00:00GMT` / `04:00:00+0000` / `4:00PM`.
            guard !hasClock else { return misfit }
            let clockEnd = token.firstIndex { !($0.isASCIIDigit || $0 == ":" || $0 == ".") } ?? token.endIndex
            guard FeedDate.readClock(token[..<clockEnd], into: &parts) else { return .invalid }
            hasClock = true
            token = token[clockEnd...]
            if token.isEmpty { return .next }
        }
        if token.first == "+" || token.first == "-" {
            return readOffset(token.dropFirst(), negative: token.first == "-")
        }
        if token.first?.isASCIIDigit == true {
            return readNumber(token)
        }
        return readWord(token, tokens, at: &index)
    }

    /// `0500` after its sign.
    private mutating func readOffset(_ digits: Substring, negative: Bool) -> Step {
        guard numericOffset == nil, let offset = FeedDate.numericOffset(digits) else {
            return namedOffset != nil || numericOffset != nil ? misfit : .invalid
        }
        numericOffset = negative ? -offset : offset
        return .next
    }

    /// A day (`10`, `3`, `10th`, `10.`) or a year (`2003`, `03`).
    private mutating func readNumber(_ token: Substring) -> Step {
        let digits = token.prefix { $0.isASCIIDigit }
        let suffix = token[digits.endIndex...].lowercased()
        let isDay = digits.count <= 2 && ["", "st", "nd", "rd", "th", "."].contains(suffix)
        let isYear = (digits.count == 4 && (suffix.isEmpty || suffix == ".")) || (digits.count == 2 && suffix.isEmpty)
        guard isDay || isYear, let value = Int(digits) else { return misfit }
        if isDay, parts.day == nil {
            parts.day = value
        } else if isYear, parts.year == nil {
            parts.year = digits.count == 4 ? value : (value < 50 ? 2000 + value : 1900 + value)
        } else {
            return misfit
        }
        return .next
    }

    /// A month, a weekday (ignored), `AM`/`PM`, a zone (`EST`, `GMT+0200`, `Eastern Daylight Time`),
    /// or another word (ignored until the date is complete, its end after).
    private mutating func readWord(_ token: Substring, _ tokens: [Substring], at index: inout Int) -> Step {
        if let sign = token.firstIndex(where: { $0 == "+" || $0 == "-" }) {
            guard FeedDate.zoneOffsets[token[..<sign].lowercased()] != nil else { return misfit }
            return readOffset(token[token.index(after: sign)...], negative: token[sign] == "-")
        }
        let word = token.filter { $0 != "." }.lowercased()
        guard !word.isEmpty, word.allSatisfy(\.isLetter) else { return misfit }
        if let month = FeedDate.monthNumber(word) {
            guard parts.month == nil else { return misfit }
            parts.month = month
            return .next
        }
        if FeedDate.isWeekday(word) { return .next }
        if word == "am" || word == "pm" {
            guard isPM == nil else { return misfit }
            isPM = word == "pm"
            return .next
        }
        if let offset = FeedDate.zoneOffsets[word] {
            if namedOffset == nil { namedOffset = offset }
            return .next
        }
        // `Eastern Daylight Time`: this word and the next few.
        let start = index - 1
        for count in stride(from: min(FeedDate.longestZoneName, tokens.count - start), through: 2, by: -1) {
            let phrase = tokens[start..<start + count].joined(separator: " ").lowercased()
            if let offset = FeedDate.longZoneOffsets[phrase] {
                if namedOffset == nil { namedOffset = offset }
                index = start + count
                return .next
            }
        }
        return isComplete ? .end : .next
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
