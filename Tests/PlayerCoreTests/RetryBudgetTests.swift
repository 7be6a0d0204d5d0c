import Clocks
import Testing
@testable import PlayerCore

@Suite("Retry budget")
struct RetryBudgetTests {
    @Test func startsFullAndDrains() {
        let budget = RetryBudget(capacity: 3, refillPerSecond: 1, clock: TestClock())
        #expect(budget.available == 3)
        #expect(budget.tryAcquire())
        #expect(budget.tryAcquire())
        #expect(budget.tryAcquire())
        #expect(!budget.tryAcquire())
        #expect(budget.available == 0)
    }

    @Test func refillsWithClockTimeUpToCapacity() async {
        let clock = TestClock()
        let budget = RetryBudget(capacity: 2, refillPerSecond: 0.5, clock: clock)
        #expect(budget.tryAcquire() && budget.tryAcquire())
        await clock.advance(by: .seconds(1))
        #expect(budget.available == 0.5)
        #expect(!budget.tryAcquire(), "half a token is not a retry")
        await clock.advance(by: .seconds(1))
        #expect(budget.tryAcquire())
        #expect(!budget.tryAcquire())
        await clock.advance(by: .seconds(100))
        #expect(budget.available == 2, "never above capacity")
    }

    @Test func withoutRefillItStaysEmpty() async {
        let clock = TestClock()
        let budget = RetryBudget(capacity: 1, refillPerSecond: 0, clock: clock)
        #expect(budget.tryAcquire())
        await clock.advance(by: .seconds(3600))
        #expect(!budget.tryAcquire())
    }

    @Test func concurrentCallersNeverTakeMoreThanCapacity() async {
        let budget = RetryBudget(capacity: 50, refillPerSecond: 0, clock: TestClock())
        let granted = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 { group.addTask { budget.tryAcquire() } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(granted == 50)
    }

    @Test func defaultsAreSmall() {
        let budget = RetryBudget()
        #expect(budget.capacity == RetryBudget.defaultCapacity)
        #expect(budget.available == RetryBudget.defaultCapacity)
    }
}

/// What the budget allowed and refused, for metrics.
@Suite("Retry budget: usage")
struct RetryBudgetUsageTests {
    @Test func spentAndRefusedRetriesAreCounted() async {
        let clock = TestClock()
        let budget = RetryBudget(capacity: 2, refillPerSecond: 0.5, clock: clock)
        #expect(budget.usage == RetryBudget.Usage())
        for _ in 0..<5 { _ = budget.tryAcquire() }
        #expect(budget.usage == RetryBudget.Usage(spent: 2, refused: 3))
        await clock.advance(by: .seconds(2))
        #expect(budget.tryAcquire())
        #expect(budget.usage == RetryBudget.Usage(spent: 3, refused: 3))
        _ = budget.available
        #expect(budget.usage == RetryBudget.Usage(spent: 3, refused: 3), "reading the tokens spends nothing")
    }
}
