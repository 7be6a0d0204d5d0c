/// What the first bytes of a document say before any XML parsing: an HTML page (a login wall, an
/// error page, a web site where a feed was expected) is reported as such, not as a broken feed.
enum XMLSniffer {
    /// How many leading bytes are looked at.
    static let sniffLength = 1024

    /// True when the bytes open like an HTML document: `<!DOCTYPE html`, `<html`, `<head` or
    /// `<body` after a UTF-8 byte order mark, whitespace and any `<?xml ...?>` declaration or
    /// comments. XHTML that opens like XML is caught later by its root element.
    static func looksLikeHTML<Bytes: Collection<UInt8>>(_ data: Bytes) -> Bool {
        var bytes = Array(data.prefix(sniffLength))[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        while true {
            bytes = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            if bytes.starts(with: Array("<?".utf8)) || bytes.starts(with: Array("<!--".utf8)) {
                let closer: [UInt8] = bytes.starts(with: Array("<?".utf8)) ? Array("?>".utf8) : Array("-->".utf8)
                guard let end = firstRange(of: closer, in: bytes) else { return false }
                bytes = bytes[end...]
                continue
            }
            break
        }
        let head = String(decoding: bytes.prefix(14).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        return ["<!doctype html", "<html", "<head", "<body"].contains { head.hasPrefix($0) }
    }

    /// The index just after the first occurrence of `needle`.
    private static func firstRange(of needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = bytes.startIndex
        while index + needle.count <= bytes.endIndex {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index + needle.count }
            index += 1
        }
        return nil
    }
}
