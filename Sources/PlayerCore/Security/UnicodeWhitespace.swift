/// Whitespace as Foundation's `CharacterSet.whitespacesAndNewlines` and `.whitespaces` define it,
/// decided in Swift.
///
/// Written by hand because `trimmingCharacters(in:)` on Linux bridges every string through
/// `NSString` and a CoreFoundation character set: reading a 5,000-item feed trims each date,
/// duration and URL, and those round trips were a tenth of its time. ASCII, almost all of
/// what is trimmed, is decided by value before Unicode's property tables are consulted. The
/// sets are Foundation's exactly (a test compares every scalar), so nothing trims differently.
package enum UnicodeWhitespace {
    /// `CharacterSet.whitespacesAndNewlines`: Unicode's White_Space, plus U+200B as
    /// CoreFoundation counts it.
    @inline(__always)
    package static func isWhitespaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return value == 0x20 || (0x09...0x0D).contains(value) }
        return value == 0x200B || scalar.properties.isWhitespace
    }

    /// `CharacterSet.whitespaces`: the space separators (Unicode category Zs) and the tab,
    /// plus U+200B as CoreFoundation counts it.
    @inline(__always)
    package static func isHorizontalWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return value == 0x20 || value == 0x09 }
        return value == 0x200B || scalar.properties.generalCategory == .spaceSeparator
    }
}

extension Substring {
    /// The text without the whitespace (and, unless `newlines` is false, the line breaks) at
    /// either end: `trimmingCharacters(in: .whitespacesAndNewlines)` (or `.whitespaces`).
    package func trimmingWhitespace(newlines: Bool = true) -> String {
        let isTrimmed = newlines ? UnicodeWhitespace.isWhitespaceOrNewline : UnicodeWhitespace.isHorizontalWhitespace
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, isTrimmed(scalars[start]) { start = scalars.index(after: start) }
        while start < end {
            let last = scalars.index(before: end)
            guard isTrimmed(scalars[last]) else { break }
            end = last
        }
        return String(scalars[start..<end])
    }
}

extension String {
    /// The text without the whitespace (and, unless `newlines` is false, the line breaks) at
    /// either end: `trimmingCharacters(in: .whitespacesAndNewlines)` (or `.whitespaces`).
    package func trimmingWhitespace(newlines: Bool = true) -> String {
        self[...].trimmingWhitespace(newlines: newlines)
    }
}
