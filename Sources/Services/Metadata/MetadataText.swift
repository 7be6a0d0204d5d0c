import Foundation
import PlayerCore
import Streaming

/// The one place where text from status documents enters the metadata service: sanitising, http(s)
/// URL checks and the normalised form used to compare titles. Kept together so every decoder and
/// the service apply exactly the same rules (untrusted text is sanitised where it enters).
enum MetadataText {
    /// Sanitised one-line text capped like ICY values, or nil when nothing readable is left.
    static func line(_ text: String?) -> String? {
        TextSanitizer.optionalSingleLine(text, maxLength: StreamingLimits.maxMetadataValueLength)
    }

    /// `text` as an absolute http(s) URL with a host, or nil. A server-named URL may be fetched
    /// later, so anything else (javascript:, file:, data:, relative paths) is dropped, and an overlong
    /// URL is dropped rather than cut (a truncated URL points somewhere else).
    static func httpURL(_ text: String?) -> URL? {
        guard let text else { return nil }
        let cleaned = TextSanitizer.singleLine(text, maxLength: 0)
        guard !cleaned.isEmpty, cleaned.count <= ServiceLimits.maxStatusURLLength,
              let components = URLComponents(string: cleaned),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else { return nil }
        return components.url
    }

    /// The form two titles are compared in: case, width and diacritics folded, and everything that
    /// is not a letter or a digit dropped, so "Artist - Title", "artist – title!" and "ARTIST TITLE"
    /// compare equal. Status APIs and ICY often differ in exactly these ways for the same track.
    static func matchKey(_ text: String?) -> String {
        guard let text else { return "" }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var scalars = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars where scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
            scalars.append(scalar)
        }
        return String(scalars).lowercased()
    }
}

extension KeyedDecodingContainer {
    /// A text field decoded leniently and sanitised: a string, or a number or bool written as text
    /// (Icecast 2.4's `status-json.xsl` writes a numeric-looking title such as `1999` as a JSON
    /// number). Null, absence or any other type is nil rather than a failed document.
    func metadataText(forKey key: Key) -> String? {
        if let text = try? decodeIfPresent(String.self, forKey: key) { return MetadataText.line(text) }
        if let number = try? decodeIfPresent(Int.self, forKey: key) { return String(number) }
        if let number = try? decodeIfPresent(Double.self, forKey: key) { return MetadataText.line(String(number)) }
        if let flag = try? decodeIfPresent(Bool.self, forKey: key) { return String(flag) }
        return nil
    }
}
