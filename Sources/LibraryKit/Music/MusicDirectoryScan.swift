import Foundation
import Library
import PlayerCore

#if canImport(Glibc)
    import Glibc
#endif

/// What is on disk under the music directory: every song file's and cue sheet's stamp by relative path, and
/// what could not be looked at. Walked with `opendir`/`readdir` rather than `FileManager`, because
/// a name that is not UTF-8 must be told apart (FileManager on Linux replaces or drops it), and a
/// symbolic link to a folder above must not loop: each folder is entered once, by its device and
/// inode.
package struct MusicDirectoryScan: Sendable {
    /// Folders deeper than this are not entered (no music collection is this deep; a link farm is).
    package static let maxDepth = 64

    package var files: [String: MusicFileStamp] = [:]
    /// Folders (relative paths, "" for the top) that could not be opened: what the index holds
    /// under them is kept, not taken for deleted.
    package var unreadableFolders: [String] = []
    /// Names that are not UTF-8: MPD addresses songs by UTF-8 paths, so these cannot be indexed.
    package var undecodableNames = 0
    /// Folders skipped because they were entered already (a link loop) or lay too deep.
    package var skippedFolders = 0

    /// An empty scan (what `scan` fills in).
    package init() {}

    /// Walks `root`. A root that is missing or not a folder is `.fileNotFound`.
    package static func scan(_ root: URL) throws(PlaybackError) -> MusicDirectoryScan {
        var info = stat()
        guard stat(root.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw PlaybackError(.fileNotFound, underlying: "the music directory does not exist or is not a folder")
        }
        var scan = MusicDirectoryScan()
        var entered: Set<FolderKey> = []
        scan.walk(root.path, relative: "", depth: 0, entered: &entered)
        return scan
    }

    private struct FolderKey: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private mutating func walk(_ absolute: String, relative: String, depth: Int, entered: inout Set<FolderKey>) {
        var info = stat()
        guard stat(absolute, &info) == 0 else {
            unreadableFolders.append(relative)
            return
        }
        guard depth <= Self.maxDepth, entered.insert(FolderKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted else {
            skippedFolders += 1
            return
        }
        guard let folder = opendir(absolute) else {
            unreadableFolders.append(relative)
            return
        }
        var folders: [(String, String)] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String? in
                let bytes = raw.prefix { $0 != 0 }
                return String(validating: bytes, as: UTF8.self)
            }
            guard let name else {
                undecodableNames += 1
                continue
            }
            guard !name.hasPrefix(".") else { continue }
            let path = absolute + "/" + name
            let child = relative.isEmpty ? name : relative + "/" + name
            // stat follows links: a link to a song is a song, a link to a folder is walked.
            var childInfo = stat()
            guard stat(path, &childInfo) == 0 else { continue }
            switch childInfo.st_mode & S_IFMT {
            case S_IFDIR:
                folders.append((path, child))
            case S_IFREG where MusicFiles.isIndexed(name: name):
                let modified = Double(childInfo.st_mtim.tv_sec) + Double(childInfo.st_mtim.tv_nsec) / 1e9
                files[child] = MusicFileStamp(modified: modified, size: Int64(childInfo.st_size))
            default:
                continue
            }
        }
        closedir(folder)
        for (path, child) in folders { walk(path, relative: child, depth: depth + 1, entered: &entered) }
    }
}
