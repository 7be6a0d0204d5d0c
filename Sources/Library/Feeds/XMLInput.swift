import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Makes a document safe to hand to Foundation's `XMLParser` on Linux, whose libxml2 callbacks
/// trap on input that libxml2 itself accepts in recovery mode:
///
/// - Names that are not UTF-8. When libxml2 reads a document as UTF-8 and meets bytes that are
///   not, it passes them on inside element and attribute names, and `XMLParser` decodes names
///   with a forced unwrap. Bytes libxml2 reads as UTF-8 are therefore repaired first (each
///   invalid sequence becomes U+FFFD, as `XMLParser` already does for text). Documents libxml2
///   converts itself are left alone, since its converter only produces valid UTF-8 and halts on
///   bytes it cannot convert: UTF-16 and UTF-32 as libxml2 detects them, and a well-formed
///   declaration of an encoding the system's iconv knows (`ISO-8859-1`, `windows-1251`...).
/// - A processing instruction without data (`<?name?>`): libxml2 reports a null pointer that
///   `XMLParser` reads as a string. A space is inserted (`<?name ?>`), which gives empty data.
/// - Declarations in a DOCTYPE's internal subset: `XMLParser` reads the null pointers libxml2
///   reports for an `<!ATTLIST>` without a default, a `<!NOTATION>` with only one identifier or
///   an unparsed `<!ENTITY>`. Feeds have no use for a DTD (external ones are never loaded), so
///   the internal subset (`[...]`) is removed; entities it declared are then undefined, which
///   also rules out entity-expansion bombs.
///
/// Valid UTF-8 without those constructs is returned as it is, without a copy.
enum XMLInput {
    static func forXMLParser(_ data: Data) -> Data {
        var data = data
        if String(validating: data, as: UTF8.self) == nil, !isConvertedByLibxml2(data) {
            data = Data(String(decoding: data, as: UTF8.self).utf8)
        }
        let bytes = [UInt8](data)
        guard bytes.contains(UInt8(ascii: "<")) else { return data }
        var out: [UInt8] = []
        var copied = 0  // bytes[..<copied] are in `out` (only once something changed)
        var index = 0
        while let open = nextIndex(of: UInt8(ascii: "<"), in: bytes, from: index) {
            if let end = emptyProcessingInstructionEnd(bytes, at: open) {
                out.append(contentsOf: bytes[copied..<end])
                out.append(UInt8(ascii: " "))
                copied = end
                index = end
            } else if let subset = internalSubset(bytes, at: open) {
                out.append(contentsOf: bytes[copied..<subset.lowerBound])
                copied = subset.upperBound
                index = subset.upperBound
            } else {
                index = open + 1
            }
        }
        guard copied > 0 else { return data }
        out.append(contentsOf: bytes[copied...])
        return Data(out)
    }

    /// For `<?name?>` at `open`: the index of its `?>`.
    static func emptyProcessingInstructionEnd(_ bytes: [UInt8], at open: Int) -> Int? {
        guard open + 1 < bytes.count, bytes[open + 1] == UInt8(ascii: "?") else { return nil }
        var index = open + 2
        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "?"),
            bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "<")
        {
            index += 1
        }
        guard index > open + 2, index + 1 < bytes.count, bytes[index] == UInt8(ascii: "?"), bytes[index + 1] == UInt8(ascii: ">")
        else { return nil }
        return index
    }

    /// For a `<!DOCTYPE` at `open` with an internal subset: the range from its `[` through its
    /// `]` (to the end of the document when the subset is never closed). Quoted literals and
    /// comments may hold `]`.
    static func internalSubset(_ bytes: [UInt8], at open: Int) -> Range<Int>? {
        let keyword = Array("<!DOCTYPE".utf8)
        guard bytes.count - open >= keyword.count, bytes[open..<(open + keyword.count)].elementsEqual(keyword) else { return nil }
        var index = open + keyword.count
        var quote: UInt8?
        var start: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if let subsetStart = start {
                if byte == UInt8(ascii: "]") { return subsetStart ..< index + 1 }
                if bytes[index...].starts(with: commentOpen) {
                    guard let close = firstIndex(of: commentClose, in: bytes, from: index + 4) else { break }
                    index = close + 3
                    continue
                }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return nil
            } else if byte == UInt8(ascii: "[") {
                start = index
            }
            index += 1
        }
        return start.map { $0 ..< bytes.count }
    }

    private static let commentOpen = Array("<!--".utf8)
    private static let commentClose = Array("-->".utf8)

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func nextIndex(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes[start...].firstIndex(of: byte)
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// True when libxml2 transcodes the document to UTF-8 rather than reading it as UTF-8.
    static func isConvertedByLibxml2(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(4))
        // libxml2's own detection from the first bytes: UTF-16 byte order marks, then `<` or `<?`
        // in UTF-32 and UTF-16 without a mark, and in EBCDIC. A UTF-8 mark means UTF-8.
        let converted: [[UInt8]] = [
            [0xFE, 0xFF], [0xFF, 0xFE], [0x00, 0x00, 0x00, 0x3C], [0x3C, 0x00, 0x00, 0x00], [0x00, 0x3C, 0x00, 0x3F],
            [0x3C, 0x00, 0x3F, 0x00], [0x4C, 0x6F, 0xA7, 0x94],
        ]
        if converted.contains(where: { head.starts(with: $0) }) { return true }
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { return false }
        guard let encoding = declaredEncoding(data) else { return false }
        // A declared UTF-8, or a UTF-16/32 label on 8-bit bytes (libxml2 then reads UTF-8).
        let name = encoding.lowercased()
        if name.hasPrefix("utf") || name.hasPrefix("ucs") { return false }
        return iconvKnows(encoding)
    }

    /// The `encoding` of an XML declaration that opens the document and follows the grammar
    /// exactly (XML 1.0 section 2.8: `version`, then `encoding`, then an optional `standalone`),
    /// or nil. Only then is it certain that libxml2 switches to that encoding; for anything
    /// looser the bytes are treated as UTF-8 and repaired, which can cost an accent but never
    /// lets invalid UTF-8 reach a name.
    static func declaredEncoding(_ data: Data) -> String? {
        let head = [UInt8](data.prefix(512))
        guard head.starts(with: Array("<?xml".utf8)),
            let end = head.indices.dropFirst(5).first(where: { head[$0] == UInt8(ascii: "?") && $0 + 1 < head.count && head[$0 + 1] == UInt8(ascii: ">") }),
            let text = String(validating: head[5..<end], as: UTF8.self),
            let match = text.wholeMatch(of: declaration)
        else { return nil }
        return String(match.output.1 ?? match.output.2 ?? "")
    }

    private nonisolated(unsafe) static let declaration =
        #/[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(?:"1\.[0-9]+"|'1\.[0-9]+')[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(?:"([A-Za-z][A-Za-z0-9._\-]*)"|'([A-Za-z][A-Za-z0-9._\-]*)')(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(?:"(?:yes|no)"|'(?:yes|no)'))?[ \t\r\n]*/#

    /// Whether iconv (what libxml2 uses for everything beyond its built-in UTF-8, UTF-16,
    /// ISO-8859-1 and ASCII) can convert from `encoding`.
    private static func iconvKnows(_ encoding: String) -> Bool {
        let descriptor = iconv_open("UTF-8", encoding)
        guard descriptor != iconv_t(bitPattern: -1) else { return false }
        iconv_close(descriptor)
        return true
    }
}
