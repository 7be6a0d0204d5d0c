import Foundation

/// The image formats artwork may come in, told apart by their first bytes (magic numbers), never by
/// the URL or the server's `Content-Type` alone: a server that labels an HTML error page or a
/// captive portal's login form `image/png` must not reach the decoder.
///
/// Only PNG and JPEG are accepted: they are what stations and cover services serve, and the two
/// decoders FFmpeg gives us for still images. GIF, WebP, BMP, SVG (XML, a script carrier) and
/// anything that looks like text are named by `sniff` only so the error can say what came.
package enum ImageKind: String, Sendable, Hashable, Codable {
    case png
    case jpeg

    /// What the first bytes of a body look like, including the formats that are refused.
    package enum Sniffed: Sendable, Hashable {
        case supported(ImageKind)
        case gif, webp, bmp, svg, html
        case unknown
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The supported kind of `data`, or nil when it is not a PNG or a JPEG.
    package static func detect(_ data: Data) -> ImageKind? {
        if case .supported(let kind) = sniff(data) { return kind }
        return nil
    }

    /// Classifies the first bytes of `data`.
    package static func sniff(_ data: Data) -> Sniffed {
        let head = [UInt8](data.prefix(512))
        if head.starts(with: pngSignature) { return .supported(.png) }
        // JPEG: SOI (FF D8) followed by the first marker's FF.
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .supported(.jpeg) }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return .gif }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        if head.starts(with: Array("BM".utf8)) { return .bmp }
        // Text formats: skip a UTF-8 byte order mark and leading whitespace, then look at the tag.
        var text = head[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        while let first = text.first, first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D { text = text.dropFirst() }
        let lowered = String(decoding: text.prefix(256), as: UTF8.self).lowercased()
        if lowered.hasPrefix("<svg") || (lowered.hasPrefix("<?xml") && lowered.contains("<svg")) { return .svg }
        if lowered.hasPrefix("<!doctype html") || lowered.hasPrefix("<html") || lowered.hasPrefix("<head")
            || lowered.hasPrefix("<body") || lowered.hasPrefix("<!--") || lowered.hasPrefix("<?xml")
        {
            return .html
        }
        return .unknown
    }

    /// `Content-Type` media types a server may send with a PNG or JPEG. `image/*` types are all let
    /// through to the magic-byte check (servers mislabel JPEGs as PNGs and back), as are the
    /// generic binary types; anything else (`text/html`, `application/json`) is refused before
    /// the bytes are even looked at.
    package static func isAcceptable(mediaType: String?) -> Bool {
        guard let mediaType, !mediaType.isEmpty else { return true }
        if mediaType.hasPrefix("image/") { return mediaType != "image/svg+xml" }
        return mediaType == "application/octet-stream" || mediaType == "binary/octet-stream"
    }
}
