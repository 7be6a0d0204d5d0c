import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Tells when a file in a folder is replaced or rewritten (inotify(7)), on a thread of its own: a
/// fact, reported as it happens, so the daemon has no reason to look at the file on a timer.
final class AlarmFileWatch: Sendable {
    private let notify: Int32
    /// The pipe that wakes the thread to stop.
    private let wake: (read: Int32, write: Int32)

    /// Watches `directory` for `name` being closed after writing, moved in (a rename that replaces
    /// it) or removed; nil when inotify is unavailable.
    init?(directory: URL, name: String, changed: @escaping @Sendable () -> Void) {
        let notify = inotify_init1(Int32(IN_CLOEXEC))
        guard notify >= 0 else { return nil }
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)
        var ends: [Int32] = [0, 0]
        guard inotify_add_watch(notify, directory.path, mask) >= 0, pipe(&ends) == 0 else {
            close(notify)
            return nil
        }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        self.notify = notify
        wake = (ends[0], ends[1])
        let thread = Thread { [notify, wake] in Self.run(notify: notify, wake: wake.read, name: name, changed: changed) }
        thread.name = "tonearm.alarm-file"
        thread.start()
    }

    /// Ends the thread (the descriptors are closed by it).
    func stop() {
        var byte: UInt8 = 0
        _ = write(wake.write, &byte, 1)
    }

    private static func run(notify: Int32, wake: Int32, name: String, changed: @Sendable () -> Void) {
        defer {
            close(notify)
            close(wake)
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
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
            var matched = false
            while offset + header <= got {
                let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                let nameBytes = buffer[(offset + header)..<min(got, offset + header + length)].prefix { $0 != 0 }
                if String(decoding: nameBytes, as: UTF8.self) == name { matched = true }
                offset += header + length
            }
            if matched { changed() }
        }
    }
}
