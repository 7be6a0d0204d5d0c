import Foundation
import PlayerCore
import Synchronization

/// Lets the player abandon a load that is still opening (a stop, a skip, a new attempt): the
/// factory registers how to wake its blocked work, the loader thread checks `isCancelled`.
/// `connection` is the line between the load's network source (if any) and the state machine.
package final class LoadCancellation: Sendable {
    private struct State {
        var cancelled = false
        var handlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    /// A network source reports its connection's facts here and is told when to give it up.
    package let connection: ConnectionLink

    package init(connection: ConnectionLink = ConnectionLink()) {
        self.connection = connection
    }

    package var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Runs `handler` on cancellation (at once if already cancelled).
    package func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = state.withLock {
            if $0.cancelled { return true }
            $0.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    package func cancel() {
        let toRun: [@Sendable () -> Void] = state.withLock { state in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.handlers.removeAll() }
            return state.handlers
        }
        toRun.forEach { $0() }
    }
}
