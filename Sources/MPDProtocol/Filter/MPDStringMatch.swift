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
        switch op {
        case .equals: return subject == foldedValue
        case .contains: return foldedValue.isEmpty || subject.contains(foldedValue)
        case .startsWith: return subject.hasPrefix(foldedValue)
        case .regex: return false
        }
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
