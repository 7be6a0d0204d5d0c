import Foundation
import PlayerCore

/// Waits until `condition` holds, checking every 20 ms, for at most `timeout` seconds (checked
/// once more at the deadline: a busy machine may wake the waiter late). The one way tests wait
/// for something that has no event to await.
///
/// It sleeps on `SystemClock`, whose wake-ups come from a thread of their own, so a wait ends on
/// time even while the shared concurrency pool is saturated.
package func eventually(timeout: Double, _ condition: () async -> Bool) async -> Bool {
    let clock = SystemClock()
    let deadline = clock.now.advanced(by: .milliseconds(Int64(timeout * 1000)))
    while true {
        if await condition() { return true }
        if clock.now >= deadline { return await condition() }
        try? await clock.sleep(for: .milliseconds(20))
    }
}
