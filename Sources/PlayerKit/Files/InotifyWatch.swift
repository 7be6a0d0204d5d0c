import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// inotify(7) read on a thread of its own, for the watchers that need to know when files change
/// (the daemon's alarm file, the music directory): each read's events are handed over as facts,
/// in order, so no one looks at the disk on a timer. Written by hand because no library here wraps
/// inotify; it is one poll loop over the inotify descriptor and a pipe that wakes it to stop.
package final class InotifyWatch: Sendable {
    /// One event: the watch it came from, what happened (`IN_*` bits) and the name in the
    /// watched folder it concerns ("" for the folder itself).
    package struct Event: Sendable, Equatable {
        package var watch: Int32
        package var mask: UInt32
        package var name: String

        package func has(_ bits: Int32) -> Bool { mask & UInt32(bits) != 0 }
    }

    private let notify: Int32
    private let wake: (read: Int32, write: Int32)
    private enum Phase { case made, running, stopped }
    /// Who closes the descriptors: the thread once it runs, `stop` when it never did.
    private let phase = Mutex(Phase.made)

    /// Nil when inotify or a pipe is unavailable.
    package init?() {
        let notify = inotify_init1(Int32(IN_CLOEXEC))
        guard notify >= 0 else { return nil }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            close(notify)
            return nil
        }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        self.notify = notify
        wake = (ends[0], ends[1])
    }

    /// Watches `path` for `mask`; the watch's number, or nil when it cannot be watched. Safe from
    /// the handler's thread (a folder made while watching is added from there).
    package func add(_ path: String, mask: UInt32) -> Int32? {
        let watch = inotify_add_watch(notify, path, mask)
        return watch >= 0 ? watch : nil
    }

    /// Starts the thread: `handle` gets each read's events until `stop`. Call once; a watch never
    /// started is closed by `stop` all the same.
    package func start(threadName: String, _ handle: @escaping @Sendable ([Event]) -> Void) {
        let starts = phase.withLock { phase in
            guard phase == .made else { return false }
            phase = .running
            return true
        }
        guard starts else { return }
        let thread = Thread { [notify, wake] in Self.run(notify: notify, wake: wake.read, handle: handle) }
        thread.name = threadName
        thread.start()
    }

    /// Ends the thread, which closes the descriptors it reads (the byte written stays readable
    /// after the writing end is closed here); a watch never started is closed at once. Only the
    /// first call does anything.
    package func stop() {
        let before = phase.withLock { phase in
            defer { phase = .stopped }
            return phase
        }
        switch before {
        case .running:
            var byte: UInt8 = 0
            _ = write(wake.write, &byte, 1)
            close(wake.write)
        case .made:
            close(notify)
            close(wake.read)
            close(wake.write)
        case .stopped:
            break
        }
    }

    private static func run(notify: Int32, wake: Int32, handle: @Sendable ([Event]) -> Void) {
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
            var events: [Event] = []
            var offset = 0
            while offset + header <= got {
                let (watch, mask, length) = buffer.withUnsafeBytes { raw in
                    (raw.load(fromByteOffset: offset, as: Int32.self), raw.load(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let name = buffer[(offset + header)..<min(got, offset + header + length)].prefix { $0 != 0 }
                events.append(Event(watch: watch, mask: mask, name: String(decoding: name, as: UTF8.self)))
                offset += header + length
            }
            handle(events)
        }
    }
}
