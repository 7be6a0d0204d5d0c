/// The scheme at the start of an address as a feed, a playlist or a listener writes it
/// (`https:`, `icy:`, `C:` of a Windows path): RFC 3986's letter, then letters, digits, `+`, `-`
/// and `.`, up to the first colon.
///
/// Read from the UTF-8 bytes: almost every address is ASCII, and a 5,000-episode feed asks this
/// for every enclosure. Text with a non-ASCII scalar before or right after the colon goes to the
/// reading by characters, whose grapheme rules (a combining mark joins the colon before it) the
/// bytes cannot see.
package enum URIScheme {
    /// The scheme's length in characters, or nil when `text` does not start with one.
    package static func length(in text: String) -> Int? {
        let bytes = text.utf8
        var count = 0
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte >= 0x80 { return lengthByCharacters(in: text) }
            if byte == UInt8(ascii: ":") {
                let next = bytes.index(after: index)
                if next != bytes.endIndex, bytes[next] >= 0x80 { return lengthByCharacters(in: text) }
                return count > 0 ? count : nil
            }
            guard isLetter(byte) || (count > 0 && isLaterSchemeByte(byte)) else { return nil }
            count += 1
            index = bytes.index(after: index)
        }
        return nil
    }

    /// The same rule over characters, for any text.
    package static func lengthByCharacters(in text: String) -> Int? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        return scheme.count
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }

    private static func isLaterSchemeByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }
}
