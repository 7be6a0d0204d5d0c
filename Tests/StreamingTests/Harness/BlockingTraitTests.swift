import Foundation
import TestProcesses
import Testing

/// `.blocking` moves a test off Swift's cooperative pool, so a test that blocks cannot starve the
/// actors of the tests running beside it. What is checked is where the code runs, not how long
/// anything takes: how busy the pool is depends on the tests beside this one.
@Suite("Blocking tests leave the cooperative pool")
struct BlockingTraitTests {
    @Test(.blocking) func aSynchronousBlockingTestRunsOnItsOwnThread() {
        #expect(BlockingTrait.isOnOwnThread)
    }

    /// After an `await` the test comes back to a thread of its own, not to the pool, even when
    /// another thread resumed it.
    @Test(.blocking) func anAsynchronousBlockingTestStaysOffThePoolAcrossAwaits() async {
        #expect(BlockingTrait.isOnOwnThread)
        await Task.yield()
        await withCheckedContinuation { continuation in Thread.detachNewThread { continuation.resume() } }
        #expect(BlockingTrait.isOnOwnThread)
    }

    @Test func anOrdinaryTestRunsOnThePool() async {
        #expect(!BlockingTrait.isOnOwnThread)
    }
}
