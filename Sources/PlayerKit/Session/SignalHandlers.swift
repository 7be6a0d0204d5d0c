import Foundation
import Synchronization

/// The process's handlers for SIGINT, SIGTERM and SIGHUP, installed once for its whole life; a
/// later session replaces what the first signal does.
///
/// Hand-written rather than a Dispatch signal source: on Linux that source reads the signal
/// through a signalfd with the signal ignored, and a process-directed signal that the kernel hands
/// to a thread not blocking it (any thread started before the source) is then discarded, so a
/// Ctrl-C could be lost. A real handler sees the signal on whichever thread takes it. All it does
/// is write the signal's number to a pipe (async-signal-safe); a thread of its own reads the pipe
/// and runs the action there.
enum SignalHandlers {
    private struct Installed {
        var installed = false
        var first: (@Sendable () -> Void)?
        var count = 0
    }

    private static let state = Mutex(Installed())
    /// The pipe's write end, set once before the handlers are installed; read by them only.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    static func install(_ first: @escaping @Sendable () -> Void) {
        let needsHandlers = state.withLock { installed in
            installed.first = first
            defer { installed.installed = true }
            return !installed.installed
        }
        guard needsHandlers else { return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        writeEnd = ends[1]
        let readEnd = ends[0]
        Thread.detachNewThread {
            var signalNumber: UInt8 = 0
            while true {
                let got = read(readEnd, &signalNumber, 1)
                if got < 0, errno == EINTR { continue }
                guard got == 1 else { return }
                let action = state.withLock { installed -> (@Sendable () -> Void)? in
                    installed.count += 1
                    return installed.count > 1 ? nil : installed.first
                }
                // A second signal: the listener does not want to wait for the fade.
                guard let action else { exit(130) }
                action()
            }
        }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalHandlers.writeEnd, &byte, 1)
            }
        }
    }
}
