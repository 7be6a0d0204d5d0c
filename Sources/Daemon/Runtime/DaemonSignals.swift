import Foundation
import PlayerKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's meaning of signals, not the terminal's: SIGHUP reopens the log (logrotate), and
/// SIGTERM and SIGINT end the daemon gracefully (a second one ends it at once, status 130).
/// Signals arrive through PlayerKit's `SignalPipe`.
package enum DaemonSignal: Sendable, Equatable {
    case reopenLog
    case terminate
}

package enum DaemonSignals {
    private static let terminations = Mutex(0)

    /// Routes the process's signals to the stream returned (a later call takes them over).
    package static func install() -> AsyncStream<DaemonSignal> {
        let (stream, continuation) = AsyncStream.makeStream(of: DaemonSignal.self)
        SignalPipe.route { number in
            if number == SIGHUP {
                continuation.yield(.reopenLog)
                return
            }
            // A second SIGTERM or Ctrl-C: whoever sends it does not want to wait.
            if terminations.withLock({ count in
                count += 1
                return count > 1
            }) { exit(130) }
            continuation.yield(.terminate)
        }
        return stream
    }
}
