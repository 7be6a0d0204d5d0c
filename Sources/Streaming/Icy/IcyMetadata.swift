import Foundation
import PlayerCore

/// One ICY (SHOUTcast/Icecast in-band) metadata block, parsed and sanitised.
///
/// A block looks like `StreamTitle='Artist - Title';StreamUrl='http://…';` followed by NUL padding
/// up to a multiple of 16 bytes. Servers copy whatever the source client sent, so the text is
/// untrusted: every value goes through `TextSanitizer.singleLine` with
/// `StreamingLimits.maxMetadataValueLength` before it leaves this type.
package struct IcyMetadata: Sendable, Equatable, Hashable {
    /// The `StreamTitle` value; nil when absent or empty after sanitising.
    package let title: String?
    /// The `StreamUrl` value, kept only when it is an http(s) URL with a host.
    package let url: String?

    package init(title: String?, url: String?) {
        self.title = title
        self.url = url
    }

    /// Parses a metadata block (the `16 * L` bytes after a length byte). Never throws and never
    /// traps: unknown keys are ignored, a block with no recognised key yields `title == nil`.
    /// Whether a block is metadata at all is `looksLikeMetadata(_:)`'s question (the demuxer asks it).
    ///
    /// Values are split on `';` rather than on `'` because servers do not escape quotes inside
    /// values (`StreamTitle='Guns N' Roses - Sweet Child o' Mine';`). To survive a title that itself
    /// contains `';`, a `';` only ends a value when what follows is the end of the block or another
    /// `Key=`; if no such terminator exists the value runs to the end of the block.
    package static func parse(_ block: [UInt8]) -> IcyMetadata {
        let bytes = trimmingPadding(block)
        var title: [UInt8]?
        var url: [UInt8]?
        var index = 0
        while index < bytes.count {
            // Skip separators and stray spaces between fields.
            if bytes[index] == semicolon || bytes[index] == space {
                index += 1
                continue
            }
            guard let equals = bytes[index...].firstIndex(of: equalsSign) else { break }
            let key = String(decoding: bytes[index..<equals], as: UTF8.self)
            var valueStart = equals + 1
            let valueEnd: Int
            let next: Int
            if valueStart < bytes.count, bytes[valueStart] == quote {
                valueStart += 1
                if let end = quotedValueEnd(bytes, from: valueStart) {
                    valueEnd = end
                    next = end + 2
                } else {
                    // No `';` terminator: take the rest, dropping a lone closing quote.
                    var end = bytes.count
                    if end > valueStart, bytes[end - 1] == quote { end -= 1 }
                    valueEnd = end
                    next = bytes.count
                }
            } else {
                let end = bytes[valueStart...].firstIndex(of: semicolon) ?? bytes.count
                valueEnd = end
                next = end + 1
            }
            let value = Array(bytes[valueStart..<max(valueStart, valueEnd)])
            switch key.lowercased() {
            case "streamtitle" where title == nil: title = value
            case "streamurl" where url == nil: url = value
            default: break
            }
            index = next
        }
        return IcyMetadata(
            title: title.flatMap { sanitisedValue($0) },
            url: url.flatMap { httpURL(decode($0)) }
        )
    }

    /// The demuxer's guard against a length byte that lies: a non-empty block counts as metadata
    /// only when, after its NUL padding, it starts with a key of 1–64 ASCII letters, digits, `_`
    /// or `-` followed by `=` (every real server starts with `StreamTitle=`). Compressed audio read
    /// as metadata after a wrong length byte fails this with overwhelming odds, so the stream is
    /// reported as malformed instead of silently losing audio and drifting out of step.
    /// An all-NUL block (some servers pad "no change" this way) counts as metadata.
    package static func looksLikeMetadata(_ block: [UInt8]) -> Bool {
        let bytes = trimmingPadding(block)
        if bytes.isEmpty { return true }
        var keyLength = 0
        for byte in bytes.prefix(65) {
            if byte == equalsSign { return keyLength > 0 }
            guard isKeyByte(byte) else { return false }
            keyLength += 1
        }
        return false
    }

    /// True when the block carries nothing but NUL padding.
    static func isPaddingOnly(_ block: [UInt8]) -> Bool { trimmingPadding(block).isEmpty }

    // MARK: - Helpers shared with `IcyStationInfo`

    /// Decodes as UTF-8 and, when the bytes are not valid UTF-8, as ISO-8859-1. Many SHOUTcast
    /// sources (Winamp-era encoders) still send Latin-1; every byte sequence is valid Latin-1, so
    /// the fallback never fails, and 0xE9 reads as "é" rather than as a replacement character.
    static func decode(_ bytes: [UInt8]) -> String {
        if let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return String(scalars)
    }

    /// Sanitised one-line text, or nil when nothing readable is left.
    static func sanitised(_ text: String) -> String? {
        TextSanitizer.optionalSingleLine(text, maxLength: StreamingLimits.maxMetadataValueLength)
    }

    /// Sanitises `raw` and keeps it only when it is an absolute http(s) URL with a host. Anything
    /// else (javascript:, file:, data:, a relative path) is dropped, since a server-named URL may be
    /// opened or fetched later (server-named URLs are http(s) only). A URL longer than
    /// the cap is dropped rather than cut: a truncated URL would point somewhere else.
    static func httpURL(_ raw: String) -> String? {
        let text = TextSanitizer.singleLine(raw, maxLength: 0)  // 0 = uncapped; the cap is checked next
        guard !text.isEmpty, text.count <= StreamingLimits.maxMetadataValueLength else { return nil }
        guard let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else { return nil }
        return text
    }

    // MARK: - Private

    private static let quote = UInt8(ascii: "'")
    private static let semicolon = UInt8(ascii: ";")
    private static let equalsSign = UInt8(ascii: "=")
    private static let space = UInt8(ascii: " ")

    private static func sanitisedValue(_ bytes: [UInt8]) -> String? { sanitised(decode(bytes)) }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// Drops the trailing NUL padding that fills a block up to a multiple of 16 bytes.
    private static func trimmingPadding(_ block: [UInt8]) -> [UInt8] {
        var end = block.count
        while end > 0, block[end - 1] == 0 { end -= 1 }
        return Array(block[0..<end])
    }

    /// Index of the `'` of the first `';` at or after `start` that is followed by the end of the
    /// block or by another `Key=` (optionally after spaces).
    private static func quotedValueEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == quote, bytes[index + 1] == semicolon, endsValue(bytes, at: index + 2) {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func endsValue(_ bytes: [UInt8], at position: Int) -> Bool {
        var index = position
        while index < bytes.count, bytes[index] == space || bytes[index] == semicolon { index += 1 }
        if index == bytes.count { return true }
        var keyLength = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == equalsSign { return keyLength > 0 }
            guard isKeyByte(byte) else { return false }
            keyLength += 1
            index += 1
        }
        return false
    }
}

/// Station details from a stream's `icy-*` response headers, sanitised like in-band metadata.
package struct IcyStationInfo: Sendable, Equatable, Hashable {
    /// `icy-name`.
    package let name: String?
    /// `icy-genre`.
    package let genre: String?
    /// `icy-br` in kbit/s; nil when absent or not a positive number. Some servers send
    /// `128,128` (one value per channel or per quality), so the first comma-separated value counts.
    package let bitrate: Int?
    /// `icy-url`, kept only when http(s).
    package let url: String?

    package init(name: String?, genre: String?, bitrate: Int?, url: String?) {
        self.name = name
        self.genre = genre
        self.bitrate = bitrate
        self.url = url
    }

    /// Reads `icy-name`, `icy-genre`, `icy-br` and `icy-url`, matching header names without regard
    /// to case (HTTP header names are case-insensitive; SHOUTcast v1 sends `icy-name`, proxies
    /// may send `Icy-Name`). When one name appears in several spellings, the lexically smallest
    /// spelling wins so the result does not depend on dictionary order.
    package init(headers: [String: String]) {
        func value(_ name: String) -> String? {
            headers.filter { $0.key.lowercased() == name }.min { $0.key < $1.key }?.value
        }
        self.name = value("icy-name").flatMap { IcyMetadata.sanitised($0) }
        self.genre = value("icy-genre").flatMap { IcyMetadata.sanitised($0) }
        self.bitrate = value("icy-br").flatMap { Self.parseBitrate($0) }
        self.url = value("icy-url").flatMap { IcyMetadata.httpURL($0) }
    }

    /// True when no header gave anything usable.
    package var isEmpty: Bool { name == nil && genre == nil && bitrate == nil && url == nil }

    /// Highest believable bitrate in kbit/s (uncompressed 32-bit 384 kHz 8-channel is ~98,000).
    static let maxBitrate = 100_000

    static func parseBitrate(_ text: String) -> Int? {
        let first = text.split(separator: ",", omittingEmptySubsequences: false).first ?? ""
        guard let value = Int(first.trimmingCharacters(in: .whitespaces)), value > 0, value <= maxBitrate else {
            return nil
        }
        return value
    }
}
