import Foundation
import MPDProtocol

/// What `listfiles` tells of one folder of the music directory: every file and folder in it,
/// songs or not, as mpd's local storage lists them. Symbolic links are left out (mpd reads
/// entries without following them and lists only plain files and folders), and so are names
/// with control characters, which no answer line can carry.
struct MPDMusicFolderListing: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var name: String
        var isDirectory: Bool
        var size: Int64
        /// Seconds since 1970.
        var modified: Double
    }

    var entries: [Entry]

    /// Where a `listfiles` path leads in the music directory, refused when it would leave it:
    /// an absolute path, a `..` or `.` name, or a link inside that points outside. mpd 0.23 lists
    /// the music directory's parent for `..`; Tonearm never shows a file outside it.
    static func folder(_ parts: [String], in musicDirectory: URL) throws(MPDAck) -> URL {
        guard !parts.contains(where: { $0 == ".." || $0 == "." }) else { throw denied }
        let base = musicDirectory.resolvingSymlinksInPath().standardizedFileURL
        let url = parts.reduce(base) { $0.appendingPathComponent($1) }.resolvingSymlinksInPath().standardizedFileURL
        guard url.path == base.path || url.path.hasPrefix(base.path + "/") else { throw denied }
        return url
    }

    static let denied = MPDAck(.permission, "Access denied")

    /// Reads the folder at `url`; `uri` names it in a refusal (never the absolute path, which
    /// names the listener's home).
    init(reading url: URL, uri: String) throws(MPDAck) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw MPDAck(.system, "Failed to open \(uri): No such file or directory")
        }
        guard isDirectory.boolValue else { throw MPDAck(.system, "Failed to open \(uri): Not a directory") }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: url.path) } catch {
            throw MPDAck(.system, "Failed to open \(uri): Permission denied")
        }
        entries = names.sorted().compactMap { name in
            guard !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
            // attributesOfItem does not follow a link: a link is of its own type and left out.
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(name).path),
                let type = attributes[.type] as? FileAttributeType, type == .typeRegular || type == .typeDirectory
            else { return nil }
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
            return Entry(name: name, isDirectory: type == .typeDirectory, size: size, modified: modified)
        }
    }

    init(entries: [Entry]) { self.entries = entries }

    /// mpd's fields: `file:` with `size:`, or `directory:`, each with `Last-Modified:`.
    func response() -> MPDResponse {
        var r = MPDResponse()
        for entry in entries {
            r.append(entry.isDirectory ? "directory" : "file", entry.name)
            if !entry.isDirectory { r.append("size", String(entry.size)) }
            r.append("Last-Modified", MPDDatabaseSong.timestamp(entry.modified))
        }
        return r
    }
}
