import Foundation
import Library
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Tells when anything under the music directory changes (inotify(7)), on a thread of its own: a
/// song written or moved in or out, a folder made or removed. Every folder is watched (inotify
/// is not recursive), new folders as they appear. When the kernel's queue overflows, events were
/// lost, so the watch says so and the owner runs a whole update rather than trust a partial one.
///
/// It reports facts only; the owner decides what to do (update the index) and when.
package final class MusicDirectoryWatch: Sendable {
    /// What happened, as the owner acts on it.
    package enum Change: Sendable, Equatable {
        /// Something under the directory changed.
        case changed
        /// Events were lost (the queue overflowed, or a folder could not be watched): look at
        /// everything again.
        case overflowed
    }

    /// Folders watched at most (each costs a kernel watch; the default per-user limit is 8,192
    /// on older kernels).
    package static let maxFolders = 8_000

    private let notify: Int32
    private let wake: (read: Int32, write: Int32)

    /// Watches every folder under `root`; nil when inotify is unavailable or `root` cannot be
    /// watched.
    package init?(root: URL, changed: @escaping @Sendable (Change) -> Void) {
        let notify = inotify_init1(Int32(IN_CLOEXEC))
        guard notify >= 0 else { return nil }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            close(notify)
            return nil
        }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        var folders: [Int32: String] = [:]
        guard Self.watchTree(root.path, notify: notify, folders: &folders) else {
            close(notify)
            close(ends[0])
            close(ends[1])
            return nil
        }
        self.notify = notify
        wake = (ends[0], ends[1])
        let thread = Thread { [notify, wake, folders] in
            Self.run(notify: notify, wake: wake.read, folders: folders, changed: changed)
        }
        thread.name = "tonearm.music-watch"
        thread.start()
    }

    /// Ends the thread (the descriptors are closed by it).
    package func stop() {
        var byte: UInt8 = 0
        _ = write(wake.write, &byte, 1)
    }

    private static let mask =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE) | UInt32(IN_CREATE)
        | UInt32(IN_DELETE_SELF) | UInt32(IN_ONLYDIR)

    /// Watches `path` and every folder below it; false when `path` itself cannot be watched.
    /// Folders past `maxFolders` are left unwatched (an update still finds their files).
    @discardableResult
    private static func watchTree(_ path: String, notify: Int32, folders: inout [Int32: String]) -> Bool {
        guard folders.count < maxFolders else { return true }
        let descriptor = inotify_add_watch(notify, path, mask)
        guard descriptor >= 0 else { return false }
        // A folder reached twice (through a link) has one watch; it is walked once.
        guard folders[descriptor] == nil else { return true }
        folders[descriptor] = path
        guard let directory = opendir(path) else { return true }
        defer { closedir(directory) }
        var children: [String] = []
        while let entry = readdir(directory) {
            guard entry.pointee.d_type == DT_DIR || entry.pointee.d_type == DT_LNK || entry.pointee.d_type == DT_UNKNOWN else { continue }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix(".") else { continue }
            children.append(path + "/" + name)
        }
        for child in children {
            var info = stat()
            if stat(child, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { watchTree(child, notify: notify, folders: &folders) }
        }
        return true
    }

    private static func run(notify: Int32, wake: Int32, folders: [Int32: String], changed: @Sendable (Change) -> Void) {
        var folders = folders
        defer {
            close(notify)
            close(wake)
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        // `struct inotify_event`: wd, mask, cookie, len (4 bytes each), then `len` bytes of name.
        let header = 16
        while true {
            var descriptors = [pollfd(fd: notify, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return }
            if descriptors[1].revents != 0 { return }
            guard descriptors[0].revents != 0 else { continue }
            let got = buffer.withUnsafeMutableBytes { read(notify, $0.baseAddress, $0.count) }
            guard got > 0 else {
                if got < 0, errno == EINTR || errno == EAGAIN { continue }
                return
            }
            var offset = 0
            var relevant = false
            var overflowed = false
            while offset + header <= got {
                let (descriptor, eventMask, length) = buffer.withUnsafeBytes { raw in
                    (raw.load(fromByteOffset: offset, as: Int32.self), raw.load(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + header)..<min(got, offset + header + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                offset += header + length
                if eventMask & UInt32(IN_Q_OVERFLOW) != 0 {
                    overflowed = true
                    continue
                }
                if eventMask & UInt32(IN_IGNORED) != 0 {
                    folders[descriptor] = nil
                    continue
                }
                let isFolder = eventMask & UInt32(IN_ISDIR) != 0
                if isFolder, eventMask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0, let parent = folders[descriptor] {
                    // A new folder: watched from now on; files copied in before the watch was
                    // added are found by the update this event starts.
                    if !watchTree(parent + "/" + name, notify: notify, folders: &folders) { overflowed = true }
                }
                // A song counts once it is whole (closed after writing) or moved or deleted; its
                // creation alone is not a change yet.
                let settled = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE)
                if isFolder || eventMask & UInt32(IN_DELETE_SELF) != 0 || (eventMask & settled != 0 && MusicFiles.isSong(name: name)) {
                    relevant = true
                }
            }
            if overflowed {
                changed(.overflowed)
            } else if relevant {
                changed(.changed)
            }
        }
    }
}
