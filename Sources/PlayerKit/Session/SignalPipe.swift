import Foundation
import Synchronization

/// The process's one route for SIGINT, SIGTERM and SIGHUP: a real handler writes the signal's
/// number to a pipe (all it does, async-signal-safe) and a thread of its own reads the pipe and
/// hands each number to the receiver, off the signal's context. The terminal's session
/// (`SignalHandlers`) and the daemon (`DaemonSignals`) give the meaning; this is the mechanism.
///
/// Hand-written rather than a Dispatch signal source: on Linux that source reads the signal
/// through a signalfd with the signal ignored, and a process-directed signal that the kernel hands
/// to a thread not blocking it (any thread started before the source) is then discarded, so a
/// Ctrl-C could be lost. A real handler sees the signal on whichever thread takes it.
package enum SignalPipe {
    private struct Route {
        var installed = false
        var receive: (@Sendable (Int32) -> Void)?
    }

    private static let route = Mutex(Route())
    /// The pipe's write end, set once before the handlers are installed; read by them only.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// From now on, each of the three signals goes to `receive` (a later call replaces it); the
    /// pipe, its thread and the handlers are made once for the process's life.
    package static func route(_ receive: @escaping @Sendable (Int32) -> Void) {
        let needsHandlers = route.withLock { route in
            route.receive = receive
            defer { route.installed = true }
            return !route.installed
        }
        guard needsHandlers else { return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        writeEnd = ends[1]
        let readEnd = ends[0]
        Thread.detachNewThread {
            var number: UInt8 = 0
            while true {
                let got = read(readEnd, &number, 1)
                if got < 0, errno == EINTR { continue }
                guard got == 1 else { return }
                route.withLock { $0.receive }?(Int32(number))
            }
        }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalPipe.writeEnd, &byte, 1)
            }
        }
    }
}
