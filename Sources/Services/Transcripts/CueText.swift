import Foundation

/// The text of a cue as the formats write it, made plain: markup tags removed (`<i>`, `<b>`,
/// `<font …>`, WebVTT's `<c.class>`, `<v Speaker>`, timestamps `<00:01.500>`), character
/// references decoded, the voice span's speaker found.
///
/// Written here rather than with an HTML library: the tags in cue text are a handful of inline
/// spans, and no HTML parser is among the packages this project builds with.
enum CueText {
    /// `text` without its tags, with its character references decoded. A `<` that opens no tag
    /// (no `>` after it on the line) is kept as text.
    static func plain(_ text: Substring) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "<", let close = text[index...].firstIndex(of: ">") {
                index = text.index(after: close)
                // Tags separate words in some files ("word<br>word"): keep one space there.
                if out.last.map({ !$0.isWhitespace }) ?? false { out.append(" ") }
                continue
            }
            out.append(character)
            index = text.index(after: index)
        }
        return decodeReferences(out)
    }

    /// The speaker of a WebVTT voice span (`<v Bob>`, `<v.loud Bob Smith>`); nil when there is none.
    static func voice(in text: Substring) -> String? {
        guard let open = text.range(of: "<v") else { return nil }
        let rest = text[open.upperBound...]
        guard let first = rest.first, first == " " || first == "." || first == "\t" else { return nil }
        guard let close = rest.firstIndex(of: ">") else { return nil }
        var inside = rest[..<close]
        // Classes come first, glued to the `v`: `.loud.soft`.
        if inside.first == "." { inside = inside.drop { !$0.isWhitespace } }
        let name = decodeReferences(String(inside)).trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }

    /// The named references cue text uses, and numeric ones; an unknown or unterminated one is
    /// kept as written.
    static func decodeReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";") else {
                out.append(character)
                index = text.index(after: index)
                continue
            }
            let name = text[text.index(after: index)..<semicolon]
            if let decoded = reference(name) {
                out.unicodeScalars.append(decoded)
                index = text.index(after: semicolon)
            } else {
                out.append(character)
                index = text.index(after: index)
            }
        }
        return out
    }

    private static func reference(_ name: Substring) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return " "
        case "lrm", "rlm": return " "
        default: break
        }
        guard name.first == "#" else { return nil }
        let digits = name.dropFirst()
        let value: UInt32? =
            if digits.first == "x" || digits.first == "X" { UInt32(digits.dropFirst(), radix: 16) } else { UInt32(digits, radix: 10) }
        guard let value, let scalar = Unicode.Scalar(value), value != 0 else { return nil }
        return scalar
    }
}
