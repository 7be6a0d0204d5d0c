import Testing

@testable import PlayerCore

/// The one rule for a machine's timers in the shells that run them (the player, the alarm runner).
@Suite("Timer slots")
struct TimerSlotsTests {
    enum Slot: Hashable, Sendable { case retry, sleep }

    /// A task that waits until cancelled, so a test sees whether arming cancelled it.
    static func waiting() -> Task<Void, Never> {
        Task {
            while !Task.isCancelled { await Task.yield() }
        }
    }

    @Test func armingASlotAgainCancelsItsTimerAndOnlyTheNewOneFires() async {
        var slots = TimerSlots<Slot>()
        var tokens: [UInt64] = []
        var tasks: [Task<Void, Never>] = []
        for _ in 0..<2 {
            slots.arm(.retry) { token in
                tokens.append(token)
                let task = Self.waiting()
                tasks.append(task)
                return task
            }
        }
        #expect(tasks[0].isCancelled && !tasks[1].isCancelled)
        let replaced = slots.fire(.retry, token: tokens[0])
        let current = slots.fire(.retry, token: tokens[1])
        let again = slots.fire(.retry, token: tokens[1])
        #expect(!replaced, "a replaced timer's firing is dropped")
        #expect(current)
        #expect(!again, "a timer fires once")
        tasks[1].cancel()
    }

    @Test func slotsAreIndependentAndCancellingDropsALateFiring() async {
        var slots = TimerSlots<Slot>()
        var retry: UInt64 = 0
        var sleep: UInt64 = 0
        let retryTask = Self.waiting()
        let sleepTask = Self.waiting()
        slots.arm(.retry) { token in
            retry = token
            return retryTask
        }
        slots.arm(.sleep) { token in
            sleep = token
            return sleepTask
        }
        slots.cancel(.retry)
        #expect(retryTask.isCancelled && !sleepTask.isCancelled)
        let cancelled = slots.fire(.retry, token: retry)
        #expect(!cancelled)
        slots.cancelAll()
        #expect(sleepTask.isCancelled)
        let late = slots.fire(.sleep, token: sleep)
        #expect(!late)
    }
}
