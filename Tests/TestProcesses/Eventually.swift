import Foundation
import PlayerCore

/// Waits until `condition` holds, checking it every `interval`, for at most `timeout` seconds
/// (checked once more at the deadline: a busy machine may wake the waiter late). The one way tests
/// wait for something that has no event to await; a harness that waits (for a state, a screen, a
/// server) delegates here and adds its own failure message.
///
/// It sleeps on `SystemClock`, whose wake-ups come from a thread of their own, so a wait ends on
/// time even while the shared concurrency pool is saturated. `condition` runs in the caller's
/// isolation.
package func eventually(
    timeout: Double, every interval: Duration = Patience.interval, isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let patience = Patience(timeout: timeout)
    while true {
        if try await condition() { return true }
        if patience.isOver { return try await condition() }
        try? await patience.clock.sleep(for: interval)
    }
}

/// `eventually` for code that may block its thread: a server harness waiting for its server, a
/// synchronous part of a `.blocking` test. Never call it on the concurrency pool. (A name of its
/// own: an overload would be chosen by context, and `#expect` can hide an async one.)
package func eventuallyBlocking(timeout: Double, every interval: Duration = Patience.interval, _ condition: () throws -> Bool) rethrows -> Bool {
    let patience = Patience(timeout: timeout)
    while true {
        if try condition() { return true }
        if patience.isOver { return try condition() }
        patience.clock.sleepBlocking(for: interval)
    }
}

/// How long `eventually` keeps trying: its deadline on `SystemClock`.
package struct Patience: Sendable {
    /// How often a condition is checked unless the caller says otherwise: often enough that a wait
    /// ends soon after its condition holds, rarely enough to cost nothing.
    package static let interval: Duration = .milliseconds(20)

    let clock = SystemClock()
    let deadline: SystemClock.Instant

    init(timeout: Double) {
        deadline = clock.now.advanced(by: .seconds(timeout))
    }

    var isOver: Bool { clock.now >= deadline }
}
