import Foundation
import TestProcesses
import Testing

/// `.blocking` moves a test off Swift's cooperative pool, so a test that blocks cannot starve the
/// actors of the tests running beside it.
@Suite("Blocking tests leave the cooperative pool free")
struct BlockingTraitTests {
    /// Occupies every thread of the cooperative pool with work that waits for this test, then
    /// blocks until all of it has started. On a pool thread one of them could never start (this
    /// test would hold the thread it needs) and the wait would run out.
    @Test(.blocking) func aBlockingTestHoldsNoPoolThread() {
        let width = ProcessInfo.processInfo.activeProcessorCount
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<width {
            Task.detached {
                started.signal()
                release.wait()
            }
        }
        var running = 0
        while running < width, started.wait(timeout: .now() + 20) == .success { running += 1 }
        for _ in 0..<width { release.signal() }
        #expect(running == width, "\(running) of \(width) pool jobs could start while this test blocked")
    }
}
