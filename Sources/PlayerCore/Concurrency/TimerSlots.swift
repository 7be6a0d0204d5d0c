/// The timers a pure machine has asked for, at most one per slot, as the shell that performs its
/// effects keeps them (the player's and the alarm runner's). Arming a slot replaces its timer; a
/// firing is delivered only when it is the slot's current timer, because a replaced or cancelled
/// timer whose sleep had already ended may still reach the shell after the change.
package struct TimerSlots<Slot: Hashable & Sendable>: Sendable {
    private struct Armed: Sendable {
        var token: UInt64
        var task: Task<Void, Never>
    }

    private var armed: [Slot: Armed] = [:]
    private var lastToken: UInt64 = 0

    package init() {}

    /// Replaces `slot`'s timer with the task `start` makes; the task hands `token` back to
    /// `fire` when its time comes.
    package mutating func arm(_ slot: Slot, _ start: (_ token: UInt64) -> Task<Void, Never>) {
        armed.removeValue(forKey: slot)?.task.cancel()
        lastToken += 1
        armed[slot] = Armed(token: lastToken, task: start(lastToken))
    }

    /// True, and the slot emptied, when `token` is `slot`'s current timer; false for a firing
    /// that was replaced or cancelled meanwhile.
    package mutating func fire(_ slot: Slot, token: UInt64) -> Bool {
        guard armed[slot]?.token == token else { return false }
        armed[slot] = nil
        return true
    }

    package mutating func cancel(_ slot: Slot) {
        armed.removeValue(forKey: slot)?.task.cancel()
    }

    package mutating func cancelAll() {
        for timer in armed.values { timer.task.cancel() }
        armed.removeAll()
    }
}
