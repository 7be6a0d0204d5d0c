import Foundation
import Synchronization

/// What SIGINT, SIGTERM and SIGHUP mean to a playback session on a terminal: the first runs the
/// session's action (a fade, then the end); a second one ends the process at once (status 130),
/// because the listener does not want to wait for the fade. A later session replaces the action;
/// signals arrive through `SignalPipe`.
enum SignalHandlers {
    private struct Handling {
        var first: (@Sendable () -> Void)?
        var count = 0
    }

    private static let handling = Mutex(Handling())

    static func install(_ first: @escaping @Sendable () -> Void) {
        handling.withLock { $0.first = first }
        SignalPipe.route { _ in
            let action = handling.withLock { handling -> (@Sendable () -> Void)? in
                handling.count += 1
                return handling.count > 1 ? nil : handling.first
            }
            guard let action else { exit(130) }
            action()
        }
    }
}
