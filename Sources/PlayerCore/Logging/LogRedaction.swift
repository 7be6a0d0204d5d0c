import Foundation

/// What may be written to a log, decided in one place and without any logging library, so every
/// layer applies the same rules and the rules are tested as plain functions.
///
/// A log is what a listener attaches to a report, so it is treated as leaving the machine:
/// - A URL keeps `scheme://host:port/path` only. User info (credentials), the query (tokens,
///   session ids) and the fragment never appear, at any level.
/// - File paths of the user (and `file:` URLs) appear only when `keepPaths` is true, which callers
///   pass for `debug` and `trace` records only.
/// - Titles, feed names and other library content are not handled here: call sites simply never
///   put them in records above `debug`.
///
/// Free text (an error's `underlying`, a metadata value) is scanned for URLs and paths, because
/// the descriptions of Foundation, NIO and AsyncHTTPClient errors may quote the address they failed on.
package enum LogRedaction {
    /// What replaces a file path that may not be shown.
    package static let pathPlaceholder = "<path>"
    /// What replaces a part of a URL that cannot be shown safely (an authority that is not a plain host).
    package static let hiddenPart = "…"

    /// `url` as a log may show it: `scheme://host:port/path`, without user info, query or fragment.
    /// A `file:` URL keeps its path only with `keepPaths`.
    package static func url(_ url: URL, keepPaths: Bool = false) -> String {
        Self.url(string: url.absoluteString, keepPaths: keepPaths)
    }

    /// The same rule for a URL given as text (which need not parse as a `URL`).
    package static func url(string: String, keepPaths: Bool = false) -> String {
        let text = Substring(string)
        guard let separator = text.range(of: "://") else {
            // No authority (`mailto:`, `urn:`, a bare word): the scheme and what precedes a query.
            let head = text.prefix { $0 != "?" && $0 != "#" }
            if let colon = head.firstIndex(of: ":") {
                return String(head[...colon]) + (head.contains("@") ? hiddenPart : String(head[head.index(after: colon)...]))
            }
            return String(head)
        }
        let scheme = text[..<separator.lowerBound]
        let rest = text[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var path = rest[authorityEnd...].prefix { $0 != "?" && $0 != "#" }
        if scheme.lowercased() == "file" {
            return "\(scheme)://\(authority)" + (keepPaths ? String(path) : (path.isEmpty ? "" : pathPlaceholder))
        }
        // A host is letters, digits, dots, dashes, a port, an IPv6 literal: anything else means
        // the text is not the URL it looks like, and none of it is shown.
        let host = authority.allSatisfy(isHostCharacter) ? String(authority) : hiddenPart
        // A path that quotes another URL or a user info is hidden too.
        if path.contains("@") || path.contains("://") { path = path.isEmpty ? "" : Substring("/" + hiddenPart) }
        return "\(scheme)://\(host)\(path)"
    }

    /// The host (and port) of `url`, or nil: the one part of a network address that is useful at
    /// every level.
    package static func host(_ url: URL) -> String? {
        guard let host = url.host, !host.isEmpty else { return nil }
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return url.port.map { "\(shown):\($0)" } ?? shown
    }

    /// `text` with every URL in it shown as `url(string:)` shows it and, unless `keepPaths`, every
    /// absolute or home-relative file path replaced by `<path>`. Whitespace is kept; control
    /// characters are flattened so one record stays one line.
    package static func text(_ text: String, keepPaths: Bool = false) -> String {
        var output = ""
        var token = ""
        for character in text {
            if character.isWhitespace || character.unicodeScalars.contains(where: isControl) {
                output += redactToken(token, keepPaths: keepPaths)
                token = ""
                output.append(" ")
            } else {
                token.append(character)
            }
        }
        output += redactToken(token, keepPaths: keepPaths)
        return output
    }

    /// One whitespace-free token: its URLs, then (unless `keepPaths`) a path in it.
    private static func redactToken(_ token: String, keepPaths: Bool) -> String {
        guard !token.isEmpty else { return token }
        var rest = Substring(token)
        var output = ""
        while let separator = rest.range(of: "://") {
            // The scheme is the run of scheme characters just before "://".
            var start = separator.lowerBound
            while start > rest.startIndex, isSchemeCharacter(rest[rest.index(before: start)]) {
                start = rest.index(before: start)
            }
            let end = rest[separator.upperBound...].firstIndex(where: isURLTerminator) ?? rest.endIndex
            output += keepPaths ? String(rest[..<start]) : redactPath(rest[..<start])
            output += url(string: String(rest[start..<end]), keepPaths: keepPaths)
            rest = rest[end...]
        }
        output += keepPaths ? String(rest) : redactPath(rest)
        return output
    }

    /// Replaces a path that starts the token or follows `=`, `:`, a quote or a bracket (`path=/home/...`,
    /// `"/home/..."`, `~/Music/...`). A slash inside a word (`HTTP/1.1`, `1/2`) is not a path.
    private static func redactPath(_ text: Substring) -> String {
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let atBoundary = index == text.startIndex || "=:(\"'[{<,".contains(text[text.index(before: index)])
            if atBoundary, character == "/" || (character == "~" && text[index...].hasPrefix("~/")) {
                let next = text.index(after: index)
                // A lone "/" is not a path.
                if next < text.endIndex, text[next] != " " {
                    let end = text[index...].firstIndex { "\"')]}>,".contains($0) } ?? text.endIndex
                    return String(text[..<index]) + pathPlaceholder + redactPath(text[end...])
                }
            }
            index = text.index(after: index)
        }
        return String(text)
    }

    private static func isSchemeCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "+" || character == "-" || character == ".")
    }

    private static func isHostCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || ".-:[]%_".contains(character))
    }

    /// Where a URL quoted in free text ends. Commas and semicolons do not end it: a query may hold
    /// them, and cutting there would leave the rest of the query in the text.
    private static func isURLTerminator(_ character: Character) -> Bool {
        "\"'<>`".contains(character)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }
}
