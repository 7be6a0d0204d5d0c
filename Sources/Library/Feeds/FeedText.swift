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
        for line in splitLines(plainTextBytes(fromHTML: raw)) {
            let cleaned = TextSanitizer.singleLine(line, maxLength: 0)
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
    ///
    /// Read as UTF-8 bytes: every character that means something here is ASCII, and no byte of a
    /// multi-byte sequence is one, so the rest is copied through whole (a fifth of the time a
    /// scalar-by-scalar reading took).
    static func plainText(fromHTML html: String) -> String {
        String(decoding: plainTextBytes(fromHTML: html), as: UTF8.self)
    }

    /// The lines of UTF-8 text, split where `String.split(separator: "\n")` splits: at every line
    /// feed that is not the second half of a CR LF pair (one character in Swift). Cut on bytes,
    /// since splitting a summary by characters cost more than reading its HTML.
    static func splitLines(_ bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        var start = 0
        for index in bytes.indices where bytes[index] == ascii("\n") && (index == 0 || bytes[index - 1] != ascii("\r")) {
            lines.append(String(decoding: bytes[start..<index], as: UTF8.self))
            start = index + 1
        }
        lines.append(String(decoding: bytes[start...], as: UTF8.self))
        return lines
    }

    private static func plainTextBytes(fromHTML html: String) -> [UInt8] {
        var html = html
        return html.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == ascii("<"), let end = tagEnd(bytes, from: index) {
                    let name = tagName(bytes, from: index + 1, to: end)
                    if name == "!--" {
                        index = commentEnd(bytes, from: index)
                        continue
                    }
                    if name == "script" || name == "style" {
                        index = closingTagEnd(bytes, name: name, from: end + 1)
                        continue
                    }
                    // `<br>` always breaks the line; other block boundaries break it once, so
                    // `</p><p>` or `</li><li>` do not leave blank lines behind.
                    if name == "br" || (blockTags.contains(name) && out.last != ascii("\n")) { out.append(ascii("\n")) }
                    index = end + 1
                    continue
                }
                if byte == ascii("&"), let (decoded, next) = entity(bytes, from: index) {
                    out.append(contentsOf: decoded.utf8)
                    index = next
                    continue
                }
                out.append(byte)
                index += 1
            }
            return out
        }
    }

    // MARK: - Tags

    /// Tags after which text continues on a new line (opening or closing).
    private static let blockTags: Set<String> = [
        "br", "p", "/p", "div", "/div", "li", "/li", "ul", "/ul", "ol", "/ol", "tr", "/tr", "blockquote",
        "/blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "/h1", "/h2", "/h3", "/h4", "/h5", "/h6", "hr", "pre", "/pre",
    ]

    private typealias Bytes = UnsafeBufferPointer<UInt8>

    private static func ascii(_ scalar: Unicode.Scalar) -> UInt8 { UInt8(scalar.value) }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= ascii("a") && (byte | 0x20) <= ascii("z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= ascii("0") && byte <= ascii("9") }

    /// The index of the `>` closing a tag that starts at `start` (`<` then a letter, `/`, `!` or
    /// `?`), or nil when `<` is just a character (`a < b`).
    private static func tagEnd(_ bytes: Bytes, from start: Int) -> Int? {
        let next = start + 1
        guard next < bytes.count else { return nil }
        let first = bytes[next]
        guard first == ascii("/") || first == ascii("!") || first == ascii("?") || isLetter(first) else { return nil }
        var index = next
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == ascii("\"") || byte == ascii("'") {
                quote = byte
            } else if byte == ascii(">") {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Lowercased tag name with a leading `/` kept (`</P>` -> `/p`); `!--` for a comment.
    private static func tagName(_ bytes: Bytes, from start: Int, to end: Int) -> String {
        if end - start >= 3, bytes[start] == ascii("!"), bytes[start + 1] == ascii("-"), bytes[start + 2] == ascii("-") { return "!--" }
        var name: [UInt8] = []
        var index = start
        if index < end, bytes[index] == ascii("/") {
            name.append(ascii("/"))
            index += 1
        }
        while index < end, isLetter(bytes[index]) || isDigit(bytes[index]) {
            name.append(isLetter(bytes[index]) ? bytes[index] | 0x20 : bytes[index])
            index += 1
        }
        return String(decoding: name, as: UTF8.self)
    }

    /// The index after `-->` (or the end of the text).
    private static func commentEnd(_ bytes: Bytes, from start: Int) -> Int {
        var index = start + 4
        while index + 2 < bytes.count {
            if bytes[index] == ascii("-"), bytes[index + 1] == ascii("-"), bytes[index + 2] == ascii(">") { return index + 3 }
            index += 1
        }
        return bytes.count
    }

    /// The index after `</name ...>` (or the end of the text): the body of a script or style.
    private static func closingTagEnd(_ bytes: Bytes, name: String, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            if bytes[index] == ascii("<"), let end = tagEnd(bytes, from: index), tagName(bytes, from: index + 1, to: end) == "/" + name {
                return end + 1
            }
            index += 1
        }
        return bytes.count
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
    private static func entity(_ bytes: Bytes, from start: Int) -> (String, Int)? {
        var index = start + 1
        var body: [UInt8] = []
        while index < bytes.count, index - start <= 10 {
            let byte = bytes[index]
            if byte == ascii(";") {
                guard let text = decodeEntity(String(decoding: body, as: UTF8.self)) else { return nil }
                return (text, index + 1)
            }
            guard isLetter(byte) || isDigit(byte) || byte == ascii("#") else { return nil }
            body.append(byte)
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
