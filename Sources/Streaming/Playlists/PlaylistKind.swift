import Foundation

/// The playlist formats Tonearm resolves to their entries before playing (a station URL
/// may name a `.pls`/`.m3u`/`.m3u8` file instead of the stream itself).
///
/// HLS is deliberately not a kind: an `.m3u8` is detected as `.m3u`, and `PlaylistParser` throws
/// `.hlsNotSupported` when the body carries an `#EXT-X-` tag. Only the body can tell a plain
/// list from an HLS playlist, and detection usually sees just the first bytes.
///
/// HTML is not a kind either. `detect` never says "playlist" because of HTML bytes, and
/// `PlaylistParser.parse` throws `.wrongContentType` for an HTML body (a captive portal or
/// error page behind a `.pls` URL). A caller that got nil from `detect` can ask `isHTML` before
/// handing the bytes to the decoder, so an HTML page is reported as a wrong content type rather
/// than as an undecodable stream.
package enum PlaylistKind: String, Sendable, Hashable, CaseIterable {
    /// SHOUTcast/Winamp INI-style playlist: `[playlist]`, `File1=`, `Title1=`.
    case pls
    /// M3U or M3U8 that lists URLs (extended `#EXTINF` titles allowed).
    case m3u

    /// How many leading bytes detection looks at; enough for a BOM, comments and one URL line.
    package static let sniffLength = 4096

    /// Content types servers send for PLS (lowercased, without parameters).
    package static let plsContentTypes: Set<String> = ["audio/x-scpls", "audio/scpls", "application/pls"]
    /// Content types servers send for M3U/M3U8 (lowercased, without parameters).
    package static let m3uContentTypes: Set<String> = [
        "audio/x-mpegurl", "audio/mpegurl", "application/x-mpegurl", "application/mpegurl",
        "application/vnd.apple.mpegurl", "application/vnd.apple.mpegurl.audio", "audio/x-m3u", "audio/m3u",
    ]

    /// Decides whether a response (or a file) is a playlist, and which.
    ///
    /// Evidence, strongest first:
    /// 1. The bytes start (after a UTF-8 BOM and whitespace) with `[playlist]` or `#EXTM3U`.
    ///    Bytes win over headers because many radio servers send playlists as `text/plain` or
    ///    even `audio/mpeg`.
    /// 2. A playlist content type (parameters such as `; charset=utf-8` ignored).
    /// 3. A concrete media content type (`audio/*`, `video/*`, `application/ogg`) means audio:
    ///    nil, even when the URL ends in `.m3u` (the server knows what it sends).
    /// 4. The URL path's extension `.pls`, `.m3u`, `.m3u8` (case-insensitive; the query is not
    ///    part of the path).
    /// 5. A text body whose first non-comment line is an http(s) URL: a plain M3U without header.
    ///
    /// Returns nil for "not a playlist": play the bytes as audio (or check `isHTML` first).
    package static func detect(contentType: String?, url: URL?, firstBytes: [UInt8]) -> PlaylistKind? {
        let head = Array(firstBytes.prefix(sniffLength))
        if let sniffed = sniffHeader(head) { return sniffed }
        let mime = normalizedContentType(contentType)
        if let mime {
            if plsContentTypes.contains(mime) { return .pls }
            if m3uContentTypes.contains(mime) { return .m3u }
            if isMediaContentType(mime) { return nil }
        }
        if let url, let byExtension = fromExtension(url) { return byExtension }
        if mime == "text/html" || isHTML(firstBytes: head) { return nil }
        if firstLineIsWebURL(head) { return .m3u }
        return nil
    }

    /// True when the content type is `text/html`/`application/xhtml+xml` or the bytes open like an
    /// HTML document (`<!DOCTYPE html`, `<html`, `<head`, `<body`, after a BOM and whitespace).
    package static func isHTML(contentType: String? = nil, firstBytes: [UInt8]) -> Bool {
        if let mime = normalizedContentType(contentType), mime == "text/html" || mime == "application/xhtml+xml" {
            return true
        }
        let text = asciiLowercasedPrefix(skipBOMAndWhitespace(Array(firstBytes.prefix(sniffLength))), count: 14)
        return ["<!doctype html", "<html", "<head", "<body"].contains { text.hasPrefix($0) }
    }

    // MARK: - Helpers shared with the parser

    /// `"Audio/X-MPEGURL; charset=utf-8"` -> `"audio/x-mpegurl"`; nil for nil or blank.
    static func normalizedContentType(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        let base = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let trimmed = base.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The kind a body announces in its first line, or nil.
    static func sniffHeader(_ bytes: [UInt8]) -> PlaylistKind? {
        let text = asciiLowercasedPrefix(skipBOMAndWhitespace(bytes), count: 10)
        if text.hasPrefix("[playlist]") { return .pls }
        if text.hasPrefix("#extm3u") { return .m3u }
        return nil
    }

    /// The bytes after a UTF-8 byte order mark and leading ASCII whitespace.
    static func skipBOMAndWhitespace(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var slice = bytes[...]
        if slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }
        return slice.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    private static func fromExtension(_ url: URL) -> PlaylistKind? {
        switch url.pathExtension.lowercased() {
        case "pls": return .pls
        case "m3u", "m3u8": return .m3u
        default: return nil
        }
    }

    private static func isMediaContentType(_ mime: String) -> Bool {
        mime.hasPrefix("audio/") || mime.hasPrefix("video/") || mime == "application/ogg"
    }

    /// Up to `count` bytes as lowercased ASCII; a non-ASCII byte ends the prefix.
    private static func asciiLowercasedPrefix(_ bytes: ArraySlice<UInt8>, count: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes.prefix(count) {
            guard byte < 0x80 else { break }
            scalars.append(Unicode.Scalar(byte))
        }
        return String(scalars).lowercased()
    }

    /// A header-less M3U: skipping blank lines and `#` comments, the first line is an http(s) URL.
    /// Every byte looked at must be printable text, so audio that happens to start with `#` or
    /// `h` is not mistaken for a list.
    private static func firstLineIsWebURL(_ bytes: [UInt8]) -> Bool {
        let lines = skipBOMAndWhitespace(bytes).split(
            omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D })
        // The last line may be cut by the sniff window; it is still judged by its start.
        for line in lines {
            guard line.allSatisfy({ ($0 >= 0x20 && $0 != 0x7F) || $0 == 0x09 }) else { return false }
            let content = line.drop { $0 == 0x20 || $0 == 0x09 }
            if content.isEmpty || content.first == UInt8(ascii: "#") { continue }
            let text = asciiLowercasedPrefix(content, count: 8)
            return text.hasPrefix("http://") || text.hasPrefix("https://")
        }
        return false
    }
}
