import Foundation
import Library
import PlayerKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Tells when anything under the music directory changes (inotify(7), `InotifyWatch`): a song
/// written, moved in or out or deleted, a folder made or removed. Every folder is watched (inotify
/// is not recursive), new folders as they appear. When the kernel's queue overflows, events were
/// lost, so the watch says so and the owner runs a whole update rather than trust a partial one.
///
/// It reports facts only; the owner decides what to do (update the index) and when.
package final class MusicDirectoryWatch: Sendable {
    /// What happened, as the owner acts on it.
    package enum Change: Sendable, Equatable {
        /// Something under the directory changed.
        case changed
        /// Events were lost (the queue overflowed, or a new folder could not be watched): look at
        /// everything again.
        case overflowed
    }

    /// Folders watched at most (each costs a kernel watch; the default per-user limit is 8,192
    /// on older kernels). Folders past it are not watched; an update still finds their files.
    package static let maxFolders = 8_000

    private let watch: InotifyWatch

    /// Each watch's folder, to add the folders made inside it; shared with the watch's thread.
    private final class Folders: Sendable {
        let byWatch = Mutex<[Int32: String]>([:])
    }

    /// Watches every folder under `root`; nil when inotify is unavailable or `root` cannot be
    /// watched.
    package init?(root: URL, changed: @escaping @Sendable (Change) -> Void) {
        guard let watch = InotifyWatch() else { return nil }
        self.watch = watch
        let folders = Folders()
        guard Self.watchTree(root.path, watch: watch, folders: folders) else {
            watch.stop()
            return nil
        }
        watch.start(threadName: "tonearm.music-watch") { events in
            if let change = Self.change(of: events, watch: watch, folders: folders) { changed(change) }
        }
    }

    /// Ends the thread (the descriptors are closed by it).
    package func stop() { watch.stop() }

    private static let mask =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE) | UInt32(IN_CREATE)
        | UInt32(IN_DELETE_SELF) | UInt32(IN_ONLYDIR)

    /// What one read's events mean: a change, events lost, or nothing a song index cares about.
    /// New folders are watched from here on.
    private static func change(of events: [InotifyWatch.Event], watch: InotifyWatch, folders: Folders) -> Change? {
        var relevant = false
        var overflowed = false
        // A song counts once it is whole (closed after writing), moved or deleted; its creation
        // alone is not a change yet.
        let settled = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE
        for event in events {
            if event.has(IN_Q_OVERFLOW) {
                overflowed = true
                continue
            }
            if event.has(IN_IGNORED) {
                folders.byWatch.withLock { $0[event.watch] = nil }
                continue
            }
            let isFolder = event.has(IN_ISDIR)
            if isFolder, event.has(IN_CREATE | IN_MOVED_TO), let parent = folders.byWatch.withLock({ $0[event.watch] }) {
                // Files copied in before this watch was added are found by the update this
                // event starts.
                if !watchTree(parent + "/" + event.name, watch: watch, folders: folders) { overflowed = true }
            }
            if isFolder || event.has(IN_DELETE_SELF) || (event.has(settled) && MusicFiles.isIndexed(name: event.name)) { relevant = true }
        }
        if overflowed { return .overflowed }
        return relevant ? .changed : nil
    }

    /// Watches `path` and every folder below it; false when `path` itself cannot be watched.
    @discardableResult
    private static func watchTree(_ path: String, watch: InotifyWatch, folders: Folders) -> Bool {
        guard folders.byWatch.withLock({ $0.count }) < maxFolders else { return true }
        guard let descriptor = watch.add(path, mask: mask) else { return false }
        // A folder reached twice (through a link) has one watch; it is walked once.
        let isNew = folders.byWatch.withLock { map in
            guard map[descriptor] == nil else { return false }
            map[descriptor] = path
            return true
        }
        guard isNew, let directory = opendir(path) else { return true }
        defer { closedir(directory) }
        var children: [String] = []
        while let entry = readdir(directory) {
            let type = entry.pointee.d_type
            guard type == DT_DIR || type == DT_LNK || type == DT_UNKNOWN else { continue }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix(".") else { continue }
            children.append(path + "/" + name)
        }
        for child in children {
            var info = stat()
            if stat(child, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { watchTree(child, watch: watch, folders: folders) }
        }
        return true
    }
}
