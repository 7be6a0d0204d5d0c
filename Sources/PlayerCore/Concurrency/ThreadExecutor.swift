import Foundation
import Synchronization

/// A thread of its own, as an executor: the `AudioPlayer` actor runs on one, and so do the tasks
/// that carry its timers, its engine reports and a front end's updates, and an HLS source's loop.
///
/// Swift's shared concurrency pool has one thread per core (two on a small machine). Anything else
/// in the process that keeps those threads busy (a refresh of every podcast, a loudness scan, a
/// large import, a test suite) would otherwise hold back the player's decisions and its updates by
/// seconds: a pause that waits, a reconnect countdown that freezes. The work done here is small,
/// so a thread for it costs little and keeps playback control on time whatever the pool is doing.
/// (Sleeps end on the pool too: code on this executor sleeps on `SystemClock`.)
///
/// Written by hand because neither the standard library nor Dispatch offers a serial executor that
/// is also a task executor on one dedicated thread. The thread ends once the executor is released:
/// an actor that runs on it and every task that prefers it hold it.
public final class ThreadExecutor: SerialExecutor, TaskExecutor, Sendable {
    private let queue: JobQueue

    /// Starts the thread; `name` is what `top -H` and a debugger show.
    public init(name: String) {
        queue = JobQueue()
        queue.executors = (asUnownedSerialExecutor(), asUnownedTaskExecutor())
        let queue = self.queue
        let thread = Thread { queue.run() }
        thread.name = name
        thread.start()
    }

    deinit {
        queue.close()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        queue.push(UnownedJob(job))
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func checkIsolated() {
        precondition(isCurrent, "not on the executor's thread")
    }

    /// True on the executor's own thread.
    public var isCurrent: Bool { queue.isCurrentThread }
}

/// The executor's jobs in order, and the loop its thread runs. Kept apart from the executor so
/// the thread does not keep the executor alive.
/// `@unchecked Sendable`: its fields are guarded by an `NSCondition`, whose waits `Mutex` does not
/// offer, and the compiler cannot see which lock guards a field.
private final class JobQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var closed = false
    private let thread = Atomic<UInt>(0)
    /// The executor in both its roles, set once before the thread starts. They do not keep it
    /// alive, and need not: a job exists only while something holds the executor.
    var executors: (serial: UnownedSerialExecutor, task: UnownedTaskExecutor)!

    var isCurrentThread: Bool { thread.load(ordering: .acquiring) == Self.currentThreadID }

    private static var currentThreadID: UInt { UInt(pthread_self()) }

    func push(_ job: UnownedJob) {
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    func close() {
        condition.withLock {
            closed = true
            condition.signal()
        }
    }

    func run() {
        thread.store(Self.currentThreadID, ordering: .releasing)
        let (serial, task) = condition.withLock { executors! }
        while let job = next() {
            job.runSynchronously(isolatedTo: serial, taskExecutor: task)
        }
    }

    /// The next job, waiting for one; nil once the executor is released and no job is left.
    private func next() -> UnownedJob? {
        condition.withLock {
            while head == jobs.count {
                if closed { return nil }
                jobs.removeAll(keepingCapacity: jobs.count < 1024)
                head = 0
                condition.wait()
            }
            let job = jobs[head]
            head += 1
            return job
        }
    }
}
