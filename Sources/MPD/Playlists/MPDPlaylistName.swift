import MPDProtocol

/// A stored playlist's name as MPD accepts one (`spl_valid_name`): not empty, no `/` (it is a
/// file name in one folder) and no line break (a client could not read it back). Bounded so
/// the file's name, with `.m3u`, fits every file system's 255 bytes.
package enum MPDPlaylistName {
    package static let maximumBytes = 250

    package static func validate(_ name: String) throws(MPDAck) {
        guard !name.isEmpty, name.utf8.count <= maximumBytes, !name.contains(where: { $0 == "/" || $0.isNewline }), !name.contains("\0")
        else { throw MPDAck(.argument, "Bad playlist name") }
    }
}
