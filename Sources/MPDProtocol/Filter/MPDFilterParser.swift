/// Reads filters as MPD 0.23 does (`SongFilter::Parse`), byte by byte: each argument is either an
/// expression in parentheses or, in the old syntax, a `TAG VALUE` pair; several are all required.
/// Tag names are the caller's (`tags`), compared without regard to ASCII case and given back
/// as the caller spells them; the special names `file`/`filename`, `any` (case-insensitive),
/// `base`, `modified-since`, `added-since` (exact) and `AudioFormat`, `prio` (case-insensitive)
/// are MPD's own. Every refusal is an `ACK [2@…]` with MPD's message.
///
/// The argument reaching here was already unquoted once by the request parser: the quotes and
/// backslashes of an expression's values are the second level of quoting.
public struct MPDFilterParser: Sendable {
    /// Lowercased name → the caller's spelling.
    private let tags: [String: String]
    /// Whether values compare without regard to case (`search`, `searchadd`...) or exactly
    /// (`find`, `findadd`...). In the old syntax it also makes every match a substring match,
    /// as MPD 0.20 did.
    public let foldCase: Bool

    /// Bytes of one quoted value (MPD's buffer holds 4095).
    public static let maximumValueLength = 4095
    /// Parentheses nested in one expression; deeper is refused rather than risk the stack.
    public static let maximumDepth = 32

    public init(tags: some Sequence<String>, foldCase: Bool = false) {
        self.tags = Dictionary(tags.map { (Self.asciiLowercased($0), $0) }) { first, _ in first }
        self.foldCase = foldCase
    }

    // MARK: Arguments

    /// The filter of a command's filter arguments (`find`, `search`, `count`...).
    public func parse(_ arguments: [String]) throws(MPDAck) -> MPDFilter {
        guard !arguments.isEmpty else { throw MPDAck(.argument, "Incorrect number of filter arguments") }
        var items: [MPDFilter] = []
        var index = 0
        while index < arguments.count {
            if arguments[index].utf8.first == UInt8(ascii: "(") {
                items.append(try parseExpression(arguments[index]))
                index += 1
                continue
            }
            guard index + 1 < arguments.count else { throw MPDAck(.argument, "Incorrect number of filter arguments") }
            items.append(try pair(arguments[index], arguments[index + 1]))
            index += 2
        }
        return items.count == 1 ? items[0] : .and(items)
    }

    /// One whole expression argument, `(…)` and nothing after it.
    public func parseExpression(_ text: String) throws(MPDAck) -> MPDFilter {
        var cursor = Cursor(Array(text.utf8))
        guard cursor.peek == UInt8(ascii: "(") else { throw MPDAck(.argument, "'(' expected") }
        let filter = try expression(&cursor, depth: 0)
        guard cursor.atEnd else { throw MPDAck(.argument, "Unparsed garbage after expression") }
        return filter
    }

    /// `TAG VALUE` in the old syntax: an exact match for `find`, a case-insensitive substring
    /// for `search`.
    func pair(_ name: String, _ value: String) throws(MPDAck) -> MPDFilter {
        switch try filterType(name) {
        case .base:
            guard Self.isSafeLocalURI(value) else { throw MPDAck(.argument, "Bad URI") }
            return .base(value)
        case .modifiedSince: return .modifiedSince(try MPDTimestamp.parse(value))
        case .addedSince: return .addedSince(try MPDTimestamp.parse(value))
        case .file: return .uri(try MPDStringMatch(foldCase ? .contains : .equals, value, foldCase: foldCase))
        case .any: return .tag(nil, try MPDStringMatch(foldCase ? .contains : .equals, value, foldCase: foldCase))
        case .tag(let tag): return .tag(tag, try MPDStringMatch(foldCase ? .contains : .equals, value, foldCase: foldCase))
        case .audioFormat, .priority: throw MPDAck(.argument, "Unknown filter type")
        }
    }

    // MARK: Expressions

    private func expression(_ s: inout Cursor, depth: Int) throws(MPDAck) -> MPDFilter {
        guard depth < Self.maximumDepth else { throw MPDAck(.argument, "Expression is nested too deeply") }
        s.advance()  // "("
        s.skipSpace()
        if s.peek == UInt8(ascii: "(") {
            let first = try expression(&s, depth: depth + 1)
            if s.accept(")") {
                s.skipSpace()
                return first
            }
            guard try word(&s) == "AND" else { throw MPDAck(.argument, "'AND' expected") }
            var items = [first]
            while true {
                guard s.peek == UInt8(ascii: "(") else { throw MPDAck(.argument, "'(' expected") }
                items.append(try expression(&s, depth: depth + 1))
                if s.accept(")") {
                    s.skipSpace()
                    return .and(items)
                }
                guard try word(&s) == "AND" else { throw MPDAck(.argument, "'AND' expected") }
            }
        }
        if s.accept("!") {
            s.skipSpace()
            guard s.peek == UInt8(ascii: "(") else { throw MPDAck(.argument, "'(' expected") }
            let inner = try expression(&s, depth: depth + 1)
            try close(&s)
            return .not(inner)
        }
        let name = try word(&s)
        let filter: MPDFilter
        switch try filterType(name, inExpression: true) {
        case .modifiedSince:
            filter = .modifiedSince(try MPDTimestamp.parse(try quoted(&s)))
        case .addedSince:
            filter = .addedSince(try MPDTimestamp.parse(try quoted(&s)))
        case .base:
            filter = .base(try quoted(&s))
        case .audioFormat:
            let mask: Bool
            if s.accept("==") { mask = false } else if s.accept("=~") { mask = true } else { throw MPDAck(.argument, "'==' or '=~' expected") }
            s.skipSpace()
            filter = .audioFormat(try MPDAudioFormat(parsing: try quoted(&s), mask: mask), mask: mask)
        case .priority:
            guard s.accept(">=") else { throw MPDAck(.argument, "'>=' expected") }
            s.skipSpace()
            var digits = 0
            var value = 0
            while let byte = s.peek, (0x30...0x39).contains(byte) {
                if value < 1 << 40 { value = value * 10 + Int(byte - 0x30) }
                digits += 1
                s.advance()
            }
            guard digits > 0 else { throw MPDAck(.argument, "Number expected") }
            s.skipSpace()
            filter = .priority(atLeast: value)
        case .file:
            filter = .uri(try stringMatch(&s))
        case .any:
            filter = .tag(nil, try stringMatch(&s))
        case .tag(let tag):
            filter = .tag(tag, try stringMatch(&s))
        }
        try close(&s)
        return filter
    }

    /// The operator and its quoted value (MPD's `ParseStringFilter`).
    private func stringMatch(_ s: inout Cursor) throws(MPDAck) -> MPDStringMatch {
        for (prefix, op, negated) in [("contains ", MPDStringMatch.Operator.contains, false), ("!contains ", .contains, true), ("starts_with ", .startsWith, false)] {
            if s.acceptIgnoringCase(prefix) {
                s.skipSpace()
                return try MPDStringMatch(op, try quoted(&s), negated: negated, foldCase: foldCase)
            }
        }
        if s.accept("=~") || s.accept("!~") {
            let negated = s.bytes[s.index - 2] == UInt8(ascii: "!")
            s.skipSpace()
            return try MPDStringMatch(.regex, try quoted(&s), negated: negated, foldCase: foldCase)
        }
        let negated: Bool
        if s.accept("==") { negated = false } else if s.accept("!=") { negated = true } else { throw MPDAck(.argument, "'==' or '!=' expected") }
        s.skipSpace()
        return try MPDStringMatch(.equals, try quoted(&s), negated: negated, foldCase: foldCase)
    }

    private func close(_ s: inout Cursor) throws(MPDAck) {
        guard s.accept(")") else { throw MPDAck(.argument, "')' expected") }
        s.skipSpace()
    }

    /// A tag name or keyword: ASCII letters, `_` and `-` (MPD's `ExpectWord`).
    private func word(_ s: inout Cursor) throws(MPDAck) -> String {
        let start = s.index
        while let byte = s.peek, Self.isWordByte(byte) { s.advance() }
        guard s.index > start else { throw MPDAck(.argument, "Word expected") }
        let word = String(decoding: s.bytes[start..<s.index], as: UTF8.self)
        s.skipSpace()
        return word
    }

    /// A value in single or double quotes; a backslash takes the next byte as it is.
    private func quoted(_ s: inout Cursor) throws(MPDAck) -> String {
        guard let quote = s.peek, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw MPDAck(.argument, "Quoted string expected")
        }
        s.advance()
        var value: [UInt8] = []
        while s.peek != quote {
            if s.peek == UInt8(ascii: "\\") { s.advance() }
            guard let byte = s.peek else { throw MPDAck(.argument, "Closing quote not found") }
            value.append(byte)
            s.advance()
            guard value.count < Self.maximumValueLength + 1 else { throw MPDAck(.argument, "Quoted value is too long") }
        }
        s.advance()
        s.skipSpace()
        return String(decoding: value, as: UTF8.self)
    }

    // MARK: Names

    enum FilterType: Equatable {
        case file, any, base, modifiedSince, addedSince, audioFormat, priority
        case tag(String)
    }

    /// MPD's `locate_parse_type`: its own names first, then the caller's tags.
    func filterType(_ name: String, inExpression: Bool = false) throws(MPDAck) -> FilterType {
        let lower = Self.asciiLowercased(name)
        switch (name, lower) {
        case (_, "file"), (_, "filename"): return .file
        case (_, "any"): return .any
        case ("base", _): return .base
        case ("modified-since", _): return .modifiedSince
        case ("added-since", _): return .addedSince
        case (_, "audioformat"): return .audioFormat
        case (_, "prio"): return .priority
        default:
            guard let tag = tags[lower] else {
                throw MPDAck(.argument, inExpression ? "Unknown filter type: \(name)" : "Unknown filter type")
            }
            return .tag(tag)
        }
    }

    /// The caller's spelling of a tag a client named in any case; nil when it is not one.
    public func tagName(_ name: String) -> String? { tags[Self.asciiLowercased(name)] }

    /// A path inside the music directory (MPD's `uri_safe_local`): not absolute, no `.` or `..`
    /// component, no empty one.
    public static func isSafeLocalURI(_ uri: String) -> Bool {
        guard !uri.hasPrefix("/") else { return false }
        if uri.isEmpty { return true }
        return !uri.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == "." || $0 == ".." || $0.isEmpty }
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// Bytes read left to right; past the end `peek` is nil, as MPD's strings end in a NUL.
    struct Cursor {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var peek: UInt8? { index < bytes.count && bytes[index] != 0 ? bytes[index] : nil }
        var atEnd: Bool { peek == nil }

        mutating func advance() { index += 1 }

        /// Spaces, tabs and every other byte below the space (MPD's `StripLeft`).
        mutating func skipSpace() {
            while let byte = peek, byte <= 0x20 { index += 1 }
        }

        mutating func accept(_ text: String) -> Bool {
            let wanted = Array(text.utf8)
            guard index + wanted.count <= bytes.count, Array(bytes[index..<(index + wanted.count)]) == wanted else { return false }
            index += wanted.count
            return true
        }

        mutating func acceptIgnoringCase(_ text: String) -> Bool {
            let wanted = Array(text.utf8)
            guard index + wanted.count <= bytes.count else { return false }
            for i in 0..<wanted.count {
                let byte = bytes[index + i]
                if (0x41...0x5A).contains(byte) ? byte + 0x20 != wanted[i] : byte != wanted[i] { return false }
            }
            index += wanted.count
            return true
        }
    }
}
