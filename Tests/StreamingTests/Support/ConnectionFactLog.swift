import Foundation
import PlayerCore
import TestProcesses

/// Plays the player's part on a source's `ConnectionLink` in tests: keeps every fact the source
/// reports, lets a test wait for one, and gives the connection up as the state machine would.
final class ConnectionFactLog: @unchecked Sendable {
    private let lock = NSLock()
    private var facts: [ConnectionFact] = []
    private(set) lazy var link = ConnectionLink { [weak self] fact in self?.record(fact) }

    var all: [ConnectionFact] { lock.withLock { facts } }

    private func record(_ fact: ConnectionFact) {
        lock.withLock { facts.append(fact) }
    }

    /// Blocks until `predicate` holds (true), or `timeout` passed (false). It is checked without
    /// this log's lock held, so it may ask the source (whose threads report facts while holding
    /// their own locks).
    func wait(timeout: Double = 15, until predicate: ([ConnectionFact]) -> Bool) -> Bool {
        eventuallyBlocking(timeout: timeout) { predicate(all) }
    }
}
