import Foundation
import PlayerCore

/// Plays the player's part on a source's `ConnectionLink` in tests: keeps every fact the source
/// reports, lets a test wait for one, and gives the connection up as the state machine would.
final class ConnectionFactLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var facts: [ConnectionFact] = []
    private(set) lazy var link = ConnectionLink { [weak self] fact in self?.record(fact) }

    var all: [ConnectionFact] { condition.withLock { facts } }

    private func record(_ fact: ConnectionFact) {
        condition.withLock {
            facts.append(fact)
            condition.broadcast()
        }
    }

    /// Blocks until `predicate` holds (true), or `timeout` passed (false). It is checked after every
    /// new fact and at least every 50 ms, without this log's lock held, so it may ask the source
    /// (whose threads report facts while holding their own locks).
    func wait(timeout: Double = 15, until predicate: ([ConnectionFact]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if predicate(all) { return true }
            if Date() >= deadline { return false }
            condition.withLock { _ = condition.wait(until: min(deadline, Date().addingTimeInterval(0.05))) }
        }
    }
}
