import PlayerCore

/// Plain, safe text from what feeds put in `<description>`, `<itunes:summary>` and
/// `<content:encoded>`: usually HTML (escaped or in CDATA), sometimes plain text.
///
/// Written by hand because Foundation's HTML import (`NSAttributedString(html:)`) does not exist on
/// Linux, and a full HTML parser would be far more than a summary needs: tags are dropped, block
/// tags become line breaks, `<script>`/`<style>` bodies and comments vanish, and the entities
/// feeds actually use are decoded. What comes out is then cleaned like every other text from the
/// network (`TextSanitizer`), line by line, so paragraphs survive but control and bidi characters
/// do not.
enum FeedText {
    /// A title-like field: one line, sanitised and capped; nil when nothing is left.
    static func line(_ raw: String?, maxLength: Int = LibraryLimits.maxTitleLength) -> String? {
        TextSanitizer.optionalSingleLine(raw, maxLength: maxLength)
    }

    /// A summary: tags stripped, entities decoded, each line sanitised, at most one blank line in a
    /// row, capped at `maxLength` characters; nil when nothing is left.
    static func summary(_ raw: String?, maxLength: Int = LibraryLimits.maxSummaryLength) -> String? {
        guard let raw else { return nil }
        var lines: [String] = []
        var lastWasBlank = true  // drops leading blank lines
        for line in plainText(fromHTML: raw).split(separator: "\n", omittingEmptySubsequences: false) {
            let cleaned = TextSanitizer.singleLine(String(line), maxLength: 0)
            if cleaned.isEmpty {
                if !lastWasBlank { lines.append("") }
                lastWasBlank = true
            } else {
                lines.append(cleaned)
                lastWasBlank = false
            }
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard !lines.isEmpty else { return nil }
        let text = lines.joined(separator: "\n")
        guard maxLength > 0, text.count > maxLength else { return text }
        return String(text.prefix(maxLength - 1)).trimmingTrailingWhitespace() + "…"
    }

    /// HTML (or plain text) to plain text with `\n` for block boundaries. Unknown entities and a
    /// `<` that does not open a tag stay as they are.
    static func plainText(fromHTML html: String) -> String {
        let scalars = Array(html.unicodeScalars)
        var out = String.UnicodeScalarView()
        out.reserveCapacity(scalars.count)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<", let end = tagEnd(scalars, from: index) {
                let name = tagName(scalars, from: index + 1, to: end)
                if name == "!--" {
                    index = commentEnd(scalars, from: index)
                    continue
                }
                if name == "script" || name == "style" {
                    index = closingTagEnd(scalars, name: name, from: end + 1)
                    continue
                }
                // `<br>` always breaks the line; other block boundaries break it once, so
                // `</p><p>` or `</li><li>` do not leave blank lines behind.
                if name == "br" || (blockTags.contains(name) && out.last != "\n") { out.append("\n") }
                index = end + 1
                continue
            }
            if scalar == "&", let (decoded, next) = entity(scalars, from: index) {
                out.append(contentsOf: decoded.unicodeScalars)
                index = next
                continue
            }
            out.append(scalar)
            index += 1
        }
        return String(out)
    }

    // MARK: - Tags

    /// Tags after which text continues on a new line (opening or closing).
    private static let blockTags: Set<String> = [
        "br", "p", "/p", "div", "/div", "li", "/li", "ul", "/ul", "ol", "/ol", "tr", "/tr", "blockquote",
        "/blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "/h1", "/h2", "/h3", "/h4", "/h5", "/h6", "hr", "pre", "/pre",
    ]

    /// The index of the `>` closing a tag that starts at `start` (`<` then a letter, `/`, `!` or
    /// `?`), or nil when `<` is just a character (`a < b`).
    private static func tagEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        let next = start + 1
        guard next < scalars.count else { return nil }
        let first = scalars[next]
        guard first == "/" || first == "!" || first == "?" || (first.isASCII && first.properties.isAlphabetic) else { return nil }
        var index = next
        var quote: Unicode.Scalar?
        while index < scalars.count {
            let scalar = scalars[index]
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
            } else if scalar == ">" {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Lowercased tag name with a leading `/` kept (`</P>` -> `/p`); `!--` for a comment.
    private static func tagName(_ scalars: [Unicode.Scalar], from start: Int, to end: Int) -> String {
        if end - start >= 3, scalars[start] == "!", scalars[start + 1] == "-", scalars[start + 2] == "-" { return "!--" }
        var name = String.UnicodeScalarView()
        var index = start
        if index < end, scalars[index] == "/" {
            name.append("/")
            index += 1
        }
        while index < end, scalars[index].isASCII, scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]) {
            name.append(scalars[index])
            index += 1
        }
        return String(name).lowercased()
    }

    /// The index after `-->` (or the end of the text).
    private static func commentEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start + 4
        while index + 2 < scalars.count {
            if scalars[index] == "-", scalars[index + 1] == "-", scalars[index + 2] == ">" { return index + 3 }
            index += 1
        }
        return scalars.count
    }

    /// The index after `</name ...>` (or the end of the text): the body of a script or style.
    private static func closingTagEnd(_ scalars: [Unicode.Scalar], name: String, from start: Int) -> Int {
        var index = start
        while index < scalars.count {
            if scalars[index] == "<", let end = tagEnd(scalars, from: index), tagName(scalars, from: index + 1, to: end) == "/" + name {
                return end + 1
            }
            index += 1
        }
        return scalars.count
    }

    // MARK: - Entities

    /// The named entities that show up in show notes (the XML five, spaces, quotes, dashes).
    private static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "ndash": "–", "mdash": "—",
        "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "laquo": "«", "raquo": "»",
        "copy": "©", "reg": "®", "trade": "™", "bull": "•", "middot": "·", "eacute": "é", "egrave": "è",
        "agrave": "à", "ouml": "ö", "uuml": "ü", "auml": "ä", "szlig": "ß", "ntilde": "ñ", "ccedil": "ç",
    ]

    /// `&name;`, `&#123;` or `&#x1F;` at `start`: the text it stands for and the index after `;`.
    private static func entity(_ scalars: [Unicode.Scalar], from start: Int) -> (String, Int)? {
        var index = start + 1
        var body = String.UnicodeScalarView()
        while index < scalars.count, index - start <= 10 {
            let scalar = scalars[index]
            if scalar == ";" {
                guard let text = decodeEntity(String(body)) else { return nil }
                return (text, index + 1)
            }
            guard scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "#" else { return nil }
            body.append(scalar)
            index += 1
        }
        return nil
    }

    private static func decodeEntity(_ body: String) -> String? {
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value: UInt32? =
                digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            // A character reference to a forbidden scalar decodes to nothing rather than to it.
            guard let value, let scalar = Unicode.Scalar(value) else { return nil }
            return TextSanitizer.isForbidden(scalar) ? "" : String(Character(scalar))
        }
        return namedEntities[body]
    }
}

extension String {
    /// The string without trailing spaces and newlines (a cut summary ends in text, then `…`).
    fileprivate func trimmingTrailingWhitespace() -> String {
        var copy = self
        while let last = copy.last, last.isWhitespace { copy.removeLast() }
        return copy
    }
}
