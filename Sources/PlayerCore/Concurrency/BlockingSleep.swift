import Foundation

extension Clock {
    /// Blocks the calling thread until `duration` has passed on this clock.
    ///
    /// For a thread of its own that paces itself (a render thread writing to an output with no
    /// device behind it): its time then comes from the injected clock like every other wait, so a
    /// test clock governs it and no test sleeps. On `SystemClock` and `ContinuousClock` the thread
    /// simply sleeps; any other clock's sleep runs as a task on a thread of its own, not on the
    /// shared concurrency pool, whose threads may all be busy, so the blocked thread wakes on time.
    ///
    /// Never call it from the concurrency pool: it would hold one of the pool's few threads for the
    /// whole sleep. Written by hand because the standard library has no blocking form of a clock's
    /// sleep, on purpose.
    package func sleepBlocking(for duration: Duration) {
        // The real clocks' sleep is the thread's own: no task and no hand-offs between threads for
        // a render thread that paces itself some twenty times a second.
        if self is SystemClock || self is ContinuousClock, let real = duration as? Swift.Duration {
            Thread.sleep(forTimeInterval: max(0, real.inSeconds))
            return
        }
        let woken = DispatchSemaphore(value: 0)
        Task(executorPreference: BlockingSleep.executor) {
            try? await sleep(for: duration)
            woken.signal()
        }
        woken.wait()
    }
}

/// Where blocking sleeps wait for their clock: one thread for every caller, whose work is starting
/// a sleep and waking its caller.
private enum BlockingSleep {
    static let executor = ThreadExecutor(name: "tonearm.blocking-sleep")
}
