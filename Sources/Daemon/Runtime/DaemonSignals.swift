import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's meaning of signals, not the terminal's: SIGHUP reopens the log (logrotate), and
/// SIGTERM and SIGINT end the daemon gracefully (a second one ends it at once, status 130).
///
/// A real handler writes the signal's number to a pipe (async-signal-safe); the stream's thread
/// reads it, for the reason `SignalHandlers` gives for not using a Dispatch signal source.
package enum DaemonSignal: Sendable, Equatable {
    case reopenLog
    case terminate
}

package enum DaemonSignals {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    private static let installed = Mutex(false)

    /// Installs the handlers (once per process) and returns what they report.
    package static func install() -> AsyncStream<DaemonSignal> {
        let (stream, continuation) = AsyncStream.makeStream(of: DaemonSignal.self)
        let first = installed.withLock { installed in
            defer { installed = true }
            return !installed
        }
        guard first else { return stream }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return stream }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        writeEnd = ends[1]
        let readEnd = ends[0]
        Thread.detachNewThread {
            var terminations = 0
            var number: UInt8 = 0
            while true {
                let got = read(readEnd, &number, 1)
                if got < 0, errno == EINTR { continue }
                guard got == 1 else { return }
                if Int32(number) == SIGHUP {
                    continuation.yield(.reopenLog)
                    continue
                }
                terminations += 1
                // A second SIGTERM or Ctrl-C: whoever sends it does not want to wait.
                if terminations > 1 { exit(130) }
                continuation.yield(.terminate)
            }
        }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(DaemonSignals.writeEnd, &byte, 1)
            }
        }
        return stream
    }
}
