import Foundation
import TestProcesses
import Testing

/// `.blocking` moves a test off Swift's cooperative pool, so a test that blocks cannot starve the
/// actors of the tests running beside it.
@Suite("Blocking tests leave the cooperative pool free")
struct BlockingTraitTests {
    /// The test's own code runs on a thread of its own, not on one of the pool's: blocking it
    /// (here, on a semaphore a detached task signals) holds no pool thread. Nothing here depends on
    /// how busy the pool is with other tests.
    @Test(.blocking) func aBlockingTestRunsOnAThreadOfItsOwn() {
        #expect(Thread.current.name == BlockingTrait.threadName, "on \(Thread.current.name ?? "an unnamed thread")")
        let done = DispatchSemaphore(value: 0)
        Task.detached { done.signal() }
        done.wait()
        #expect(Thread.current.name == BlockingTrait.threadName, "after the wait, on \(Thread.current.name ?? "an unnamed thread")")
    }

    /// Without the trait a test runs on the pool, so the check above can fail.
    @Test func aPlainTestRunsOnThePool() {
        #expect(Thread.current.name != BlockingTrait.threadName)
    }
}
