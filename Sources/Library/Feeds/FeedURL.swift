import Foundation
import PlayerCore

/// Turns a URL as a feed or OPML file writes it into one Tonearm may fetch, or nil.
///
/// Only http and https survive, with a host: a feed must not be able to point the player at
/// `file:///etc/passwd`, a `javascript:`/`data:` URL or an FTP server. Relative URLs (`/ep1.mp3`,
/// `ep1.mp3`, `//cdn.example.com/ep1.mp3`) resolve against the feed's own address, as a browser
/// would. Feeds often carry spaces or non-ASCII characters in URLs, which `URL(string:)` refuses;
/// those are percent-encoded rather than the URL dropped.
///
/// Written here rather than shared with `Streaming`'s playlist resolver because `Library` sits
/// beside `Streaming`, not above it, and a feed never names local files.
enum FeedURL {
    static func resolve(_ text: String, against base: URL?) -> URL? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= LibraryLimits.maxURLLength,
            !trimmed.unicodeScalars.contains(where: TextSanitizer.isForbidden)
        else { return nil }
        let url: URL?
        if URIScheme.length(in: trimmed) != nil {
            url = URL(string: trimmed) ?? encoded(trimmed).flatMap { URL(string: $0) }
        } else if let base {
            url = (URL(string: trimmed, relativeTo: base) ?? encoded(trimmed).flatMap { URL(string: $0, relativeTo: base) })?
                .absoluteURL
        } else {
            url = nil
        }
        guard let url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.absoluteString.utf8.count <= LibraryLimits.maxURLLength
        else { return nil }
        return url
    }

    /// Percent-encodes what `URL(string:)` refuses (spaces, non-ASCII) and keeps existing escapes.
    private static func encoded(_ text: String) -> String? {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "%#")
        return text.addingPercentEncoding(withAllowedCharacters: allowed)
    }
}
