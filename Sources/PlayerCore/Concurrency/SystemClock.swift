import Foundation

/// The clock Tonearm runs on outside tests: `ContinuousClock`'s time, with sleeps woken by a
/// thread of its own instead of the shared concurrency pool.
///
/// A sleep on `ContinuousClock` ends on the pool: when the pool is busy (a refresh of every
/// podcast, a loudness scan, a test suite), a reconnect countdown or a stall check would fire
/// seconds late, even in a task that runs on the player's own thread. This clock's sleeper resumes
/// the task directly, so it continues on its own executor at its deadline. Tests inject a
/// `TestClock` instead and never sleep.
public struct SystemClock: Clock {
    public typealias Instant = ContinuousClock.Instant

    public init() {}

    public var now: Instant { ContinuousClock.now }

    public var minimumResolution: Duration { ContinuousClock().minimumResolution }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await TimerThread.shared.sleep(until: deadline)
    }
}

/// One thread that wakes sleepers at their deadlines. Written by hand: the standard library's
/// sleeps and Dispatch's timers both hand the wake-up to the shared pool.
/// `@unchecked Sendable`: its fields are guarded by an `NSCondition`, whose waits `Mutex` does not
/// offer, and the compiler cannot see which lock guards a field.
final class TimerThread: @unchecked Sendable {
    static let shared = TimerThread()

    private struct Sleeper {
        let id: UInt64
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let condition = NSCondition()
    /// Sorted by deadline, soonest last (popped from the end). A player has a handful of timers,
    /// so a sorted array beats a heap here.
    private var sleepers: [Sleeper] = []
    private var nextID: UInt64 = 0

    private init() {
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "tonearm.timers"
        thread.start()
    }

    func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = condition.withLock {
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                condition.withLock {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    let index = sleepers.firstIndex { $0.deadline < deadline } ?? sleepers.endIndex
                    sleepers.insert(Sleeper(id: id, deadline: deadline, continuation: continuation), at: index)
                    condition.signal()
                }
            }
        } onCancel: {
            let cancelled = condition.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    private func run() {
        while true {
            let due: [Sleeper] = condition.withLock {
                while true {
                    guard let soonest = sleepers.last else {
                        condition.wait()
                        continue
                    }
                    let now = ContinuousClock.now
                    if soonest.deadline <= now { break }
                    let wait = now.duration(to: soonest.deadline)
                    _ = condition.wait(until: Date(timeIntervalSinceNow: wait.inSeconds))
                }
                let now = ContinuousClock.now
                let split = sleepers.lastIndex { $0.deadline > now }.map { $0 + 1 } ?? 0
                defer { sleepers.removeSubrange(split...) }
                return Array(sleepers[split...])
            }
            for sleeper in due { sleeper.continuation.resume() }
        }
    }
}
