/// A client's regular expression (`=~`, `!~`), compiled with Swift's regex engine, whose syntax
/// is PCRE's as MPD's is. Bounded: a pattern longer than `maximumLength` is refused before it is
/// compiled, and one that does not compile is the client's error, never a crash. Swift's `Regex`
/// is not `Sendable`, so a filter keeps the pattern's text (checked when parsed) and an
/// `MPDFilterMatcher` compiles it once for the songs it decides on.
struct MPDFilterPattern {
    /// Bytes of pattern accepted; a client's search needs far fewer.
    static let maximumLength = 512

    private let regex: Regex<AnyRegexOutput>

    init(_ pattern: String, ignoringCase: Bool) throws(MPDAck) {
        guard pattern.utf8.count <= Self.maximumLength else { throw MPDAck(.argument, "Regular expression is too long") }
        do {
            let compiled = try Regex(pattern)
            regex = ignoringCase ? compiled.ignoresCase() : compiled
        } catch {
            throw MPDAck(.argument, "Invalid regular expression")
        }
    }

    /// Found anywhere in `string`, as PCRE's unanchored match.
    func isFound(in string: String) -> Bool {
        (try? regex.firstMatch(in: string)) != nil
    }
}
