/// Cleans strings that come from the network or from files (ICY titles, tags, RSS, server bodies)
/// before they enter Tonearm.
///
/// Written by hand because no library here strips exactly this set: C0 controls, DEL, C1
/// (U+0080-U+009F) and the Unicode bidi overrides/isolates that can reorder what a terminal shows.
/// Newlines and tabs become single spaces in one-line fields; length is capped in characters.
package enum TextSanitizer {
    /// The longest one-line field Tonearm keeps (titles, artists, station names).
    package static let defaultMaxLength = 256

    /// Returns `text` with control and bidi-override characters removed, whitespace runs folded to
    /// one space, surrounding spaces trimmed, and at most `maxLength` characters (an ellipsis marks a cut).
    package static func singleLine(_ text: String, maxLength: Int = defaultMaxLength) -> String {
        if isCleanASCIILine(text, maxLength: maxLength) { return text }
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace {
                pendingSpace = !out.isEmpty
                continue
            }
            if isForbidden(scalar) { continue }
            if pendingSpace {
                out.append(" ")
                pendingSpace = false
            }
            out.append(scalar)
        }
        let cleaned = String(out)
        guard maxLength > 0, cleaned.count > maxLength else { return cleaned }
        return String(cleaned.prefix(max(0, maxLength - 1))) + "…"
    }

    /// True when `singleLine` would return `text` unchanged and it is printable ASCII: no
    /// controls, no space at either end or twice in a row, within `maxLength`. Most titles,
    /// GUIDs and MIME types are, and a feed of 5,000 items has tens of thousands of them.
    private static func isCleanASCIILine(_ text: String, maxLength: Int) -> Bool {
        let bytes = text.utf8
        guard maxLength <= 0 || bytes.count <= maxLength else { return false }
        var previousWasSpace = true  // a leading space is not clean
        for byte in bytes {
            if byte == 0x20 {
                if previousWasSpace { return false }
                previousWasSpace = true
            } else {
                guard byte > 0x20, byte < 0x7F else { return false }
                previousWasSpace = false
            }
        }
        return !previousWasSpace || bytes.isEmpty
    }

    /// Like `singleLine` but returns nil for input that is empty after cleaning.
    package static func optionalSingleLine(_ text: String?, maxLength: Int = defaultMaxLength) -> String? {
        guard let text else { return nil }
        let cleaned = singleLine(text, maxLength: maxLength)
        return cleaned.isEmpty ? nil : cleaned
    }

    /// True for scalars that must never reach a terminal or a log line.
    package static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F, 0x80...0x9F: return true          // C0, DEL, C1
        case 0x200E, 0x200F, 0x061C: return true                  // LRM, RLM, ALM
        case 0x202A...0x202E: return true                         // LRE, RLE, PDF, LRO, RLO
        case 0x2066...0x2069: return true                         // LRI, RLI, FSI, PDI
        default: return false
        }
    }
}
