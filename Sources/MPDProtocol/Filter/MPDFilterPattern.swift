/// A client's regular expression (`=~`, `!~`), compiled with Swift's regex engine, whose syntax
/// is PCRE's as MPD's is. Swift's engine backtracks without a step limit (PCRE, under MPD, stops
/// at its match limit), so a pattern is bounded before it is compiled, and a refused or broken
/// one is the client's error, never a crash or a hang:
/// - at most `maximumLength` bytes;
/// - no repeated group that itself repeats or alternates (`(a+)+`, `(a|aa)*`: exponential);
/// - at most `maximumUnboundedRepeats` unbounded repetitions (`*`, `+`, `{n,}`) and
///   `maximumRepeats` repetitions in all (each multiplies the work by the value's length);
/// - a value is searched in its first `maximumSubjectLength` characters.
/// Swift's `Regex` is not `Sendable`, so a filter keeps the pattern's text (checked when parsed)
/// and an `MPDFilterMatcher` compiles it once for the songs it decides on.
struct MPDFilterPattern {
    static let maximumLength = 512
    static let maximumUnboundedRepeats = 2
    static let maximumRepeats = 8
    static let maximumSubjectLength = 256

    private let regex: Regex<AnyRegexOutput>

    init(_ pattern: String, ignoringCase: Bool) throws(MPDAck) {
        guard pattern.utf8.count <= Self.maximumLength else { throw MPDAck(.argument, "Regular expression is too long") }
        guard Self.isBounded(Array(pattern.unicodeScalars)) else { throw MPDAck(.argument, "Regular expression is too complex") }
        do {
            let compiled = try Regex(pattern)
            regex = ignoringCase ? compiled.ignoresCase() : compiled
        } catch {
            throw MPDAck(.argument, "Invalid regular expression")
        }
    }

    /// Found anywhere in `string`'s first characters, as PCRE's unanchored match.
    func isFound(in string: String) -> Bool {
        let subject = string.count > Self.maximumSubjectLength ? String(string.prefix(Self.maximumSubjectLength)) : string
        return (try? regex.firstMatch(in: subject)) != nil
    }

    /// Whether backtracking over the pattern stays polynomial and small (the rules above). A
    /// scan of the pattern's syntax: escapes and character classes are skipped, groups tracked.
    static func isBounded(_ p: [Unicode.Scalar]) -> Bool {
        struct Group {
            var repeats = false
            var alternates = false
        }
        var stack = [Group()]
        var unbounded = 0
        var repeats = 0
        var i = 0
        /// The repetition starting at `i`, if any: its length and whether it is unbounded.
        func repetition(at i: Int) -> (length: Int, unbounded: Bool)? {
            guard i < p.count else { return nil }
            var length: Int
            var isUnbounded: Bool
            switch p[i] {
            case "*", "+": (length, isUnbounded) = (1, true)
            case "?": (length, isUnbounded) = (1, false)
            case "{":
                var j = i + 1
                while j < p.count, p[j].properties.numericType != nil || p[j] == "," { j += 1 }
                guard j < p.count, p[j] == "}", j > i + 1 else { return nil }
                let body = String(String.UnicodeScalarView(p[(i + 1)..<j]))
                length = j - i + 1
                isUnbounded = body.hasSuffix(",")
            default: return nil
            }
            // A lazy or possessive mark belongs to the repetition.
            if i + length < p.count, p[i + length] == "?" || p[i + length] == "+" { length += 1 }
            return (length, isUnbounded)
        }
        func count(_ r: (length: Int, unbounded: Bool)) {
            repeats += 1
            if r.unbounded { unbounded += 1 }
            stack[stack.count - 1].repeats = true
        }
        while i < p.count {
            switch p[i] {
            case "\\":
                i += 2
                if let r = repetition(at: i) { count(r); i += r.length }
                continue
            case "[":
                var j = i + 1
                if j < p.count, p[j] == "^" { j += 1 }
                if j < p.count, p[j] == "]" { j += 1 }
                while j < p.count, p[j] != "]" { j += p[j] == "\\" ? 2 : 1 }
                i = j + 1
            case "(":
                stack.append(Group())
                i += 1
                if i < p.count, p[i] == "?" { i += 1 }
                continue
            case ")":
                guard stack.count > 1 else { return true }  // unbalanced: the compiler refuses it
                let inner = stack.removeLast()
                i += 1
                if let r = repetition(at: i) {
                    if inner.repeats || inner.alternates { return false }
                    count(r)
                    i += r.length
                } else if inner.repeats {
                    stack[stack.count - 1].repeats = true
                }
                continue
            case "|":
                stack[stack.count - 1].alternates = true
                i += 1
                continue
            default:
                i += 1
            }
            if let r = repetition(at: i) {
                count(r)
                i += r.length
            }
        }
        return unbounded <= maximumUnboundedRepeats && repeats <= maximumRepeats
    }
}
