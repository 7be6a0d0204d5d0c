/// Reads a command's arguments as MPD 0.23's own parser does (its `ArgParser`: `strtoul`, `strtol`,
/// `strtof` and the checks after them), so a malformed or out-of-range argument is refused with
/// the same `ACK [2@…]` text a real mpd sends: `Integer expected: x`, `Number too large: -1` (an
/// unsigned argument read with `strtoul` wraps a minus sign round to a huge number),
/// `Boolean (0/1) expected: 2`, `Float expected: x`.
public enum MPDArgumentParser {
    /// An unsigned number up to `max` (`ParseCommandArgUnsigned`): digits with an optional sign;
    /// a negative one is "too large", as `strtoul` makes it.
    public static func unsigned(_ text: String, max: Int = Int(UInt32.max)) throws(MPDAck) -> Int {
        guard let (negative, magnitude) = integer(text) else { throw MPDAck(.argument, "Integer expected: \(text)") }
        guard !negative || magnitude == 0, magnitude <= max else { throw MPDAck(.argument, "Number too large: \(text)") }
        return magnitude
    }

    /// A 32-bit unsigned number (`ParseCommandArgU32`: `plchanges`' version), which never says
    /// "too large": like `strtoul` it takes `-1` as the largest number rather than refuse it.
    public static func u32(_ text: String) throws(MPDAck) -> Int {
        guard let (negative, magnitude) = integer(text) else { throw MPDAck(.argument, "Integer expected: \(text)") }
        if negative { return magnitude == 0 ? 0 : Int(UInt32.max) }
        return min(magnitude, Int(UInt32.max))
    }

    /// A signed number within `range` (`ParseCommandArgInt`).
    public static func int(_ text: String, in range: ClosedRange<Int> = Int(Int32.min)...Int(Int32.max)) throws(MPDAck) -> Int {
        guard let (negative, magnitude) = integer(text) else { throw MPDAck(.argument, "Integer expected: \(text)") }
        let value = negative ? -magnitude : magnitude
        guard range.contains(value) else { throw MPDAck(.argument, "Number too large: \(text)") }
        return value
    }

    /// `0` or `1` (`ParseCommandArgBool`).
    public static func bool(_ text: String) throws(MPDAck) -> Bool {
        switch integer(text) {
        case (false, 0)?: return false
        case (false, 1)?: return true
        default: throw MPDAck(.argument, "Boolean (0/1) expected: \(text)")
        }
    }

    /// A floating-point number as `strtof` reads it (`nan` and `inf` included), as
    /// `mixrampdb` and `mixrampdelay` take it.
    public static func float(_ text: String) throws(MPDAck) -> Float {
        guard let value = Float(text) else { throw MPDAck(.argument, "Float expected: \(text)") }
        return value
    }

    /// A sign and the digits' value, or nil when `text` is not digits with an optional sign (the
    /// value saturates far beyond any limit, so a long number is "too large", never wrapped).
    static func integer(_ text: String) -> (negative: Bool, magnitude: Int)? {
        var digits = Substring(text)
        var negative = false
        if let sign = digits.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var value = 0
        for digit in digits.utf8 { value = min(value * 10 + Int(digit - 0x30), 1 << 40) }
        return (negative, value)
    }
}

/// MPD's `START:END` argument (its `RangeArg`): positions from START up to END excluded, one
/// position (`N`), open-ended (`START:`), or everything (`-1`, an old client's way to say it).
/// How a range past the end of the queue is taken is each command's, as in MPD: most refuse
/// only a START past the end and cut the END (`clipped`), `plchanges` cuts both (`relaxed`).
public struct MPDRange: Sendable, Hashable {
    public var start: Int
    /// `MPDRange.openEnd` for an open-ended range.
    public var end: Int

    /// The END of `START:` (MPD's `UINT_MAX`).
    public static let openEnd = Int(UInt32.max)
    public static let all = MPDRange(start: 0, end: openEnd)

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    public static func single(_ position: Int) -> MPDRange { MPDRange(start: position, end: position + 1) }

    public var isOpenEnded: Bool { end == Self.openEnd }
    public var isEmpty: Bool { start >= end }
    public var count: Int { max(0, end - start) }

    /// Reads a range as `ParseCommandArgRange` does, with its words for what is wrong.
    public init(parsing text: String) throws(MPDAck) {
        guard let colon = text.firstIndex(of: ":") else {
            guard let (negative, value) = MPDArgumentParser.integer(text) else {
                throw MPDAck(.argument, "Integer or range expected: \(text)")
            }
            if negative, value == 1 {
                self = .all
                return
            }
            self = .single(try Self.bound(negative, value, text))
            return
        }
        guard let (negative, value) = MPDArgumentParser.integer(String(text[..<colon])) else {
            throw MPDAck(.argument, "Integer or range expected: \(text)")
        }
        let start = try Self.bound(negative, value, text)
        let endText = String(text[text.index(after: colon)...])
        if endText.isEmpty {
            self.init(start: start, end: Self.openEnd)
            return
        }
        guard let (endNegative, endValue) = MPDArgumentParser.integer(endText) else {
            throw MPDAck(.argument, "Integer or range expected: \(text)")
        }
        let end = try Self.bound(endNegative, endValue, text)
        guard start <= end else { throw MPDAck(.argument, "Malformed range: \(text)") }
        self.init(start: start, end: end)
    }

    private static func bound(_ negative: Bool, _ value: Int, _ text: String) throws(MPDAck) -> Int {
        if negative, value != 0 { throw MPDAck(.argument, "Number is negative: \(text)") }
        guard value <= Int(Int32.max) else { throw MPDAck(.argument, "Number too large: \(text)") }
        return value
    }

    /// The positions of a list of `count` items that the range names, its END cut to the list's
    /// end; nil when START is past the end (MPD's `CheckClip`: "Bad song index"). A START just
    /// at the end names nothing, which is no error.
    public func clipped(to count: Int) -> Range<Int>? {
        guard start <= count else { return nil }
        return start..<min(end, count)
    }

    /// Both ends cut to the list (MPD's `ClipRelaxed`, `plchanges`): never an error.
    public func relaxed(to count: Int) -> Range<Int> {
        let end = min(self.end, count)
        return min(start, end)..<end
    }

    /// `clipped`, refused with MPD's words when START is past the end.
    public func checked(count: Int) throws(MPDAck) -> Range<Int> {
        guard let range = clipped(to: count) else { throw MPDAck(.argument, "Bad song index") }
        return range
    }
}
