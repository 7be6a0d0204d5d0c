/// A stored playlist's file: UTF-8 M3U, one song's URI per line (its path as `file:` shows it,
/// or a stream's URL), as MPD writes them. Reading skips blank lines and `#` comments (an
/// `#EXTM3U` header or `#EXTINF` lines another program wrote) and a carriage return before
/// the line feed.
package enum MPDPlaylistFile {
    package static func songs(in text: String) -> [String] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).compactMap { line in
            var uri = Substring(line)
            while let last = uri.last, last == "\r" || last == " " || last == "\t" { uri.removeLast() }
            while let first = uri.first, first == " " || first == "\t" { uri.removeFirst() }
            return uri.isEmpty || uri.hasPrefix("#") ? nil : String(uri)
        }
    }

    /// The file's text; a URI never holds a line break (the request parser refuses control
    /// characters), so every song stays one line.
    package static func text(_ songs: [String]) -> String {
        songs.map { $0 + "\n" }.joined()
    }
}
