import Foundation

/// Commands from the player actor to the render thread, and the lockstep acknowledgement used in
/// render mode. A lock and a condition: the render thread must never wait on an actor.
/// `@unchecked Sendable`: its fields are guarded by an `NSCondition`, whose waits `Mutex` does not
/// offer, and the compiler cannot see which lock guards a field.
final class CommandQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [EngineCommand] = []
    private var acknowledged: UInt64 = 0

    func enqueue(_ command: EngineCommand) {
        condition.lock()
        pending.append(command)
        condition.broadcast()
        condition.unlock()
    }

    /// Everything queued; waits for at least one command when `wait` is true.
    func takeAll(wait: Bool) -> [EngineCommand] {
        condition.lock()
        defer { condition.unlock() }
        while wait && pending.isEmpty { condition.wait() }
        let out = pending
        pending.removeAll()
        return out
    }

    /// The actor has handled every report up to `sequence`.
    func acknowledge(_ sequence: UInt64) {
        condition.lock()
        if sequence > acknowledged { acknowledged = sequence }
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `sequence` is acknowledged or a command arrives that must not wait (shutdown).
    func waitForAcknowledgement(of sequence: UInt64) {
        condition.lock()
        defer { condition.unlock() }
        while acknowledged < sequence && !pending.contains(where: { if case .shutdown = $0 { true } else { false } }) {
            condition.wait()
        }
    }
}
