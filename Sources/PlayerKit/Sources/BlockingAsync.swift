import AudioEngine
import Foundation
import PlayerCore

/// Async work run from a loader thread, which waits for it: written by hand because the standard
/// library has no such bridge, on purpose. Decoder factories run on their own threads (never the
/// concurrency pool), so blocking there is safe; `load` cancellation cancels the task. The other
/// way (blocking work awaited from async code) is `BlockingCall.onOwnThread`.
///
/// The task's jobs run on the waiting thread itself, so opening a stream never waits for a thread
/// of the shared pool, however busy it is.
enum BlockingAsync {
    static func run<T: Sendable>(
        cancellation: LoadCancellation, _ work: @escaping @Sendable () async throws(PlaybackError) -> T
    ) throws(PlaybackError) -> T {
        let executor = WaitingThreadExecutor<Result<T, PlaybackError>>()
        let task = Task(executorPreference: executor) {
            do throws(PlaybackError) {
                executor.finish(.success(try await work()))
            } catch {
                executor.finish(.failure(error))
            }
        }
        cancellation.onCancel { task.cancel() }
        return try executor.runUntilFinished().get()
    }
}

/// A task executor whose jobs run on the thread that waits for the task's result. A job that
/// comes after the result (none should) runs on a thread of its own rather than be lost.
/// `@unchecked Sendable`: its fields are guarded by an `NSCondition`, whose waits `Mutex` does not
/// offer, and the compiler cannot see which lock guards a field.
private final class WaitingThreadExecutor<Output: Sendable>: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var output: Output?
    private var waiting = true

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let ranHere = condition.withLock {
            guard waiting else { return false }
            jobs.append(job)
            condition.signal()
            return true
        }
        if !ranHere {
            let executor = asUnownedTaskExecutor()
            Thread.detachNewThread { job.runSynchronously(on: executor) }
        }
    }

    func finish(_ value: Output) {
        condition.withLock {
            output = value
            condition.signal()
        }
    }

    /// Runs the task's jobs on the calling thread until the task has finished.
    func runUntilFinished() -> Output {
        let executor = asUnownedTaskExecutor()
        while true {
            let next: UnownedJob? = condition.withLock {
                while jobs.isEmpty && output == nil { condition.wait() }
                if jobs.isEmpty { waiting = false }
                return jobs.isEmpty ? nil : jobs.removeFirst()
            }
            guard let job = next else { break }
            job.runSynchronously(on: executor)
        }
        return condition.withLock { output! }
    }
}
