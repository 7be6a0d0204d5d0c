import Foundation
import PlayerKit

#if canImport(Glibc)
    import Glibc
#endif

/// Tells when a file in a folder is replaced or rewritten (inotify(7), `InotifyWatch`): a fact,
/// reported as it happens, so the daemon has no reason to look at the file on a timer.
final class AlarmFileWatch: Sendable {
    private let watch: InotifyWatch

    /// Watches `directory` for `name` being closed after writing, moved in (a rename that replaces
    /// it) or removed; nil when inotify is unavailable.
    init?(directory: URL, name: String, changed: @escaping @Sendable () -> Void) {
        guard let watch = InotifyWatch() else { return nil }
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)
        guard watch.add(directory.path, mask: mask) != nil else {
            watch.stop()
            return nil
        }
        self.watch = watch
        watch.start(threadName: "tonearm.alarm-file") { events in
            if events.contains(where: { $0.name == name }) { changed() }
        }
    }

    /// Ends the thread (the descriptors are closed by it).
    func stop() { watch.stop() }
}
