import Foundation
import PlayerCore
import Testing

/// Runs blocking work (starting a server, a read that waits for the network, a child process) on a
/// thread of its own and awaits its result, so the awaiting task holds no thread of the shared
/// pool meanwhile. The one way tests move a piece of work off the pool; `.blocking` moves a whole
/// test.
package func onOwnThread<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
    try await BlockingCall.onOwnThread { Result(catching: work) }.get()
}

/// Runs a test off Swift's cooperative thread pool, each of its jobs on a thread of its own.
///
/// Tests that block (waiting for a child process, reading its output, polling a server) would
/// otherwise hold one of the pool's threads, and on a two-core machine the pool has two: two such
/// tests running side by side stop every actor in the test process, so a player in a third test
/// sits in `playing` with a frozen position until they are done. Blocking work belongs on its own
/// thread; this trait puts the whole test there, so the test can stay written as straight-line code.
///
/// Apply it to every suite whose tests block: `@Suite(.blocking)`. Such tests run at most
/// `TestSlots.width` at a time.
package struct BlockingTrait: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        try await TestSlots.withSlot {
            try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) {
                try await function()
            }
        }
    }
}

extension BlockingTrait {
    /// Whether the calling code runs on a thread of its own that `.blocking` made (and so may block).
    package static var isOnOwnThread: Bool { Thread.current.threadDictionary[ThreadPerJobExecutor.marker] != nil }
}

extension Trait where Self == BlockingTrait {
    /// The test blocks its thread: run it off the cooperative pool.
    package static var blocking: Self { BlockingTrait() }
}

/// A task executor that runs every job on a new thread. Jobs of one task still run one at a time
/// (a task has one job at a time); a job that blocks holds only its own thread.
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()
    /// The thread-dictionary key that marks this executor's threads.
    static let marker = "tonearm.test.ownThread"

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread {
            Thread.current.threadDictionary[Self.marker] = true
            job.runSynchronously(on: executor)
        }
        thread.stackSize = 4 << 20
        thread.start()
    }
}
