import Foundation
import PlayerCore

/// One playable entry of a playlist, in the order the playlist gives (the order is the fallback
/// order: a dead first entry falls back to the next).
package struct PlaylistEntry: Sendable, Hashable {
    /// An http(s) URL, or a file URL when the playlist itself is a local file.
    package let url: URL
    /// The playlist's title for the entry, sanitised (`TextSanitizer.singleLine`); nil when absent or blank.
    package let title: String?

    package init(url: URL, title: String?) {
        self.url = url
        self.title = title
    }
}

/// Turns PLS and M3U/M3U8 bodies into entries. Pure: no I/O, same input, same output.
///
/// Used for playlists fetched from the network and for playlist files imported as
/// stations. The difference is `baseURL`: a file URL means "the user's own local file",
/// which may name local files; anything else (including nil) is treated as untrusted network data.
package enum PlaylistParser {
    /// Parses `data` as `kind` and returns its entries, at most `StreamingLimits.maxPlaylistEntries`.
    ///
    /// - Throws: `.malformedData` for a body over `StreamingLimits.maxPlaylistBytes` or one with no
    ///   usable entry; `.hlsNotSupported` for any `#EXT-X-` tag (HLS master or media playlist);
    ///   `.wrongContentType` for an HTML page (checked here, on the whole body, because detection
    ///   often sees only a URL and a header: a `.pls` URL answered by a login page lands here).
    ///
    /// A body that announces the other format in its first line (`[playlist]` or `#EXTM3U`) is
    /// parsed as that format: servers mislabel playlists, and the header cannot be mistaken.
    package static func parse(_ data: Data, kind: PlaylistKind, baseURL: URL?) throws(PlaybackError) -> [PlaylistEntry] {
        guard data.count <= StreamingLimits.maxPlaylistBytes else {
            throw PlaybackError(.malformedData, underlying: "playlist too large: \(data.count) bytes")
        }
        let bytes = [UInt8](data)
        if PlaylistKind.isHTML(firstBytes: bytes) {
            throw PlaybackError(.wrongContentType, underlying: "an HTML page where a playlist was expected")
        }
        let effectiveKind = PlaylistKind.sniffHeader(bytes) ?? kind
        let lines = decodeText(bytes).split(whereSeparator: \.isNewline)
        let isLocal = baseURL?.isFileURL == true
        let raw: [(location: String, title: String?)] =
            switch effectiveKind {
            case .pls: parsePLS(lines)
            case .m3u: try parseM3U(lines)
            }
        var entries: [PlaylistEntry] = []
        for item in raw {
            guard entries.count < StreamingLimits.maxPlaylistEntries else { break }
            guard let url = resolve(item.location, baseURL: baseURL, allowFiles: isLocal) else { continue }
            entries.append(PlaylistEntry(url: url, title: TextSanitizer.optionalSingleLine(item.title)))
        }
        guard !entries.isEmpty else {
            throw PlaybackError(.malformedData, underlying: "playlist has no playable entries")
        }
        return entries
    }

    // MARK: - Text

    /// UTF-8 (BOM stripped) when the bytes are valid UTF-8, otherwise Latin-1. Older SHOUTcast
    /// tools and Windows players wrote `.pls`/`.m3u` in Latin-1/Windows-1252 (the `.m3u8`
    /// extension exists precisely because `.m3u` was not UTF-8). Latin-1 maps every byte to a
    /// character, so decoding never fails and accented titles survive; C1 bytes it produces are
    /// removed by the sanitiser.
    static func decodeText(_ bytes: [UInt8]) -> String {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if let utf8 = String(validating: body, as: UTF8.self) { return utf8 }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: body.map { Unicode.Scalar($0) })
        return String(scalars)
    }

    // MARK: - PLS

    /// `FileN=`/`TitleN=` pairs, sorted by N. The numbers, not the line order, define the list:
    /// PLS is an INI file whose keys may come in any order (generators emit `Title1` after
    /// `File2`, or group all titles last), and `TitleN` belongs to `FileN` wherever it stands.
    /// Gaps in the numbering are tolerated; the first of duplicate keys wins. `LengthN`,
    /// `NumberOfEntries` and `Version` are ignored: servers get them wrong, the entries are what counts.
    static func parsePLS(_ lines: [Substring]) -> [(location: String, title: String?)] {
        var files: [Int: String] = [:]
        var titles: [Int: String] = [:]
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let equals = trimmed.firstIndex(of: "=") else { continue }  // also skips `[playlist]`
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if let n = number(after: "file", in: key) {
                if files[n] == nil, !value.isEmpty { files[n] = value }
            } else if let n = number(after: "title", in: key) {
                if titles[n] == nil { titles[n] = value }
            }
        }
        return files.keys.sorted().map { n in (location: files[n] ?? "", title: titles[n]) }
    }

    /// `"file12"` with prefix `"file"` -> 12; nil unless the rest is 1-9 ASCII digits.
    private static func number(after prefix: String, in key: String) -> Int? {
        guard key.hasPrefix(prefix) else { return nil }
        let digits = key.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    // MARK: - M3U

    /// Entry lines in file order; `#EXTINF:<duration>[ attributes],<title>` names the next entry.
    /// Any `#EXT-X-` tag means HLS, which Tonearm does not play yet: failing clearly beats
    /// "playing" the segment list of a master playlist as if it were stations.
    static func parseM3U(_ lines: [Substring]) throws(PlaybackError) -> [(location: String, title: String?)] {
        var result: [(location: String, title: String?)] = []
        var pendingTitle: String?
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#") {
                let upper = trimmed.prefix(8).uppercased()
                if upper.hasPrefix("#EXT-X-") {
                    throw PlaybackError(.hlsNotSupported, underlying: "HLS playlist (#EXT-X- tag)")
                }
                if upper.hasPrefix("#EXTINF:") { pendingTitle = extinfTitle(trimmed) }
                continue
            }
            result.append((location: trimmed, title: pendingTitle))
            pendingTitle = nil
        }
        return result
    }

    /// The text after the first comma that is not inside a quoted attribute (`tvg-name="a,b"`).
    private static func extinfTitle(_ line: String) -> String? {
        var inQuotes = false
        for index in line.indices {
            switch line[index] {
            case "\"": inQuotes.toggle()
            case "," where !inQuotes: return String(line[line.index(after: index)...])
            default: continue
            }
        }
        return nil
    }

    // MARK: - URLs

    /// Resolves one entry and decides whether Tonearm may open it.
    ///
    /// Only http and https survive from a network playlist: a server must not be able to point
    /// the player at `file:///etc/passwd`, a `javascript:`/`data:` URL or an FTP host. A local
    /// playlist (`allowFiles`) may also name local files, as absolute paths, paths relative to
    /// the playlist's folder, or `file:` URLs, which is what playlist files on disk contain.
    /// The result always has one of `Track.playableSchemes`.
    static func resolve(_ location: String, baseURL: URL?, allowFiles: Bool) -> URL? {
        guard !location.isEmpty, !location.unicodeScalars.contains(where: TextSanitizer.isForbidden) else { return nil }
        let url: URL?
        if hasScheme(location) {
            url = URL(string: location) ?? encoded(location).flatMap { URL(string: $0) }
        } else if allowFiles, let baseURL {
            let folder = baseURL.deletingLastPathComponent()
            url = location.hasPrefix("/")
                ? URL(fileURLWithPath: location)
                : URL(fileURLWithPath: location, relativeTo: folder).standardizedFileURL
        } else if let baseURL {
            url = (URL(string: location, relativeTo: baseURL) ?? encoded(location).flatMap { URL(string: $0, relativeTo: baseURL) })?
                .absoluteURL
        } else {
            url = nil
        }
        guard let url, let scheme = url.scheme?.lowercased(), Track.playableSchemes.contains(scheme) else { return nil }
        switch scheme {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else { return nil }
            return url
        default:
            return allowFiles && url.isFileURL ? url : nil
        }
    }

    /// A scheme of at least two characters, so a Windows drive (`C:\`) is not taken for one.
    private static func hasScheme(_ text: String) -> Bool {
        (URIScheme.length(in: text) ?? 0) >= 2
    }

    /// Percent-encodes what `URL(string:)` refuses (spaces, non-ASCII) and keeps existing escapes.
    private static func encoded(_ text: String) -> String? {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "%#")
        return text.addingPercentEncoding(withAllowedCharacters: allowed)
    }
}
