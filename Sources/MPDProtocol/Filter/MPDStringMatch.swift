#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How one string (a tag value, a URI) is compared with a filter's value. `foldCase` is what
/// `search` (rather than `find`) asks for: both sides compared without regard to case, a regular
/// expression matched case-insensitively.
public struct MPDStringMatch: Sendable, Hashable {
    public enum Operator: Sendable, Hashable {
        /// `==` / `!=`: the whole string.
        case equals
        /// `contains` / `!contains`: anywhere in the string (the old syntax's `search` too).
        case contains
        /// `starts_with` (MPD 0.24).
        case startsWith
        /// `=~` / `!~`: a regular expression found anywhere in the string, as PCRE matches it.
        case regex
    }

    public let op: Operator
    public let value: String
    public let negated: Bool
    public let foldCase: Bool
    private let foldedValue: String

    /// A match; a regular expression that does not compile (or is longer than
    /// `MPDFilterPattern.maximumLength`) is the client's `ACK [2@…]` error.
    public init(_ op: Operator, _ value: String, negated: Bool = false, foldCase: Bool = false) throws(MPDAck) {
        self.op = op
        self.value = value
        self.negated = negated
        self.foldCase = foldCase
        foldedValue = foldCase ? MPDStringMatch.fold(value) : value
        // Compiled once here only to refuse a bad one while the client waits for the answer.
        if op == .regex { _ = try MPDFilterPattern(value, ignoringCase: foldCase) }
    }

    /// Whether `string` matches, before any negation (MPD's `MatchWithoutNegation`); `pattern`
    /// is this match's compiled expression when it is a `.regex` one.
    func matchesIgnoringNegation(_ string: String, pattern: MPDFilterPattern?) -> Bool {
        if let pattern { return pattern.isFound(in: string) }
        let subject = foldCase ? Self.fold(string) : string
        // Compared as UTF-8 bytes, as mpd compares them: a Character-wise search (canonical
        // equivalence, grapheme breaking) costs ten times as much over a whole database.
        switch op {
        case .equals: return Self.bytes(of: subject, equal: foldedValue)
        case .contains: return foldedValue.isEmpty || Self.bytes(of: subject, contain: foldedValue)
        case .startsWith: return subject.utf8.starts(with: foldedValue.utf8)
        case .regex: return false
        }
    }

    /// Whether the two strings are the same UTF-8 bytes: lengths first (most values differ
    /// there), then one `memcmp`; comparing byte by byte through `utf8` cost a tenth of a `find`.
    static func bytes(of a: String, equal b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a
        var b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
    }

    /// Whether `needle`'s UTF-8 bytes occur in `haystack`'s.
    static func bytes(of haystack: String, contain needle: String) -> Bool {
        var haystack = haystack
        var needle = needle
        return haystack.withUTF8 { h in
            needle.withUTF8 { n in
                guard let first = n.first, n.count <= h.count else { return n.isEmpty }
                var start = 0
                let last = h.count - n.count
                while start <= last {
                    guard let found = h[start...last].firstIndex(of: first) else { return false }
                    if rest(of: n, isIn: h, at: found + 1) { return true }
                    start = found + 1
                }
                return false
            }
        }
    }

    /// Whether `n` after its first byte is what `h` holds from `offset` (which has room for it).
    private static func rest(of n: UnsafeBufferPointer<UInt8>, isIn h: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        var i = 1
        while i < n.count {
            if h[offset + i - 1] != n[i] { return false }
            i += 1
        }
        return true
    }


    /// The operator as the expression syntax writes it.
    public var operatorText: String {
        switch (op, negated) {
        case (.equals, false): "=="
        case (.equals, true): "!="
        case (.contains, false): "contains"
        case (.contains, true): "!contains"
        case (.startsWith, _): "starts_with"
        case (.regex, false): "=~"
        case (.regex, true): "!~"
        }
    }

    /// Case folding for `search`: Unicode lowercase mapping, as MPD's ICU folding does for the
    /// letters clients type.
    static func fold(_ string: String) -> String { string.lowercased() }

}
