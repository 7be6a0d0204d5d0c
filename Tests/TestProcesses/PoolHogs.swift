import Foundation
import Synchronization

/// CPU-bound work that takes every thread of Swift's shared concurrency pool until stopped: what a
/// refresh of every podcast or a loudness scan does to a process at its worst. Each hog spins
/// without ever suspending; there are more hogs than threads, so the pool has none left.
///
/// `heldThroughout` says whether it really had none: a probe job queued behind the hogs runs only
/// when a thread comes free after they all took one, so a test that proves something "while the
/// pool is busy" checks it.
package final class PoolHogs: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let running = Atomic<Int>(0)
    private let probeRan = Atomic<Bool>(false)
    /// Threads of the pool: one per core.
    package let poolWidth = ProcessInfo.processInfo.activeProcessorCount

    /// Starts twice as many hogs as the pool has threads; each gives up after `limit` seconds, so a
    /// test that fails before `stop()` does not spin for ever.
    package init(limit: Duration = .seconds(60)) {
        for _ in 0..<(poolWidth * 2) {
            Task.detached { [self] in
                running.add(1, ordering: .relaxed)
                let start = ContinuousClock.now
                while !stopped.load(ordering: .relaxed) && start.duration(to: .now) < limit {}
                running.subtract(1, ordering: .relaxed)
            }
        }
        Task.detached { [self] in probeRan.store(true, ordering: .relaxed) }
    }

    deinit { stop() }

    /// True once a hog spins. The probe was queued behind all of them: it runs only after every
    /// hog has had a thread (they never give one back before `stop()`), whatever else in the
    /// process held the pool's threads meanwhile.
    package var holdPool: Bool { running.load(ordering: .relaxed) >= 1 }

    /// True while no other job has run on the pool since the hogs took it.
    package var heldThroughout: Bool { !probeRan.load(ordering: .relaxed) }

    package func stop() { stopped.store(true, ordering: .relaxed) }
}
