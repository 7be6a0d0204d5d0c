import Foundation

/// Addresses a listener types or a file names: only http(s) with a host counts as a place on the
/// network (a station, a feed, a status API). Shown as host and path only, since a query or user
/// information may hold a token that must never reach a screen or a log.
package enum WebAddress {
    /// The http(s) URL `text` names, or nil.
    package static func parse(_ text: String) -> URL? {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)), isWeb(url) else { return nil }
        return url
    }

    /// Is `url` http(s) with a host?
    package static func isWeb(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme) else { return false }
        return url.host?.isEmpty == false
    }

    /// Host and path only, on one line.
    package static func display(_ url: URL) -> String {
        TextSanitizer.singleLine("\(url.host ?? "")\(url.path)", maxLength: 120)
    }
}
