import AudioEngine
import Foundation
import PlayerCore

/// The two bridges between blocking work and async code, written by hand because the standard
/// library has neither, on purpose.
///
/// `run` runs async work from a loader thread and waits for it. Decoder factories run on their
/// own threads (never the concurrency pool), so blocking there is safe; `load` cancellation
/// cancels the task.
///
/// `onThread` is the other way: blocking work (decoding a whole file to measure it) awaited from
/// async code on a thread of its own. On the concurrency pool it would hold one of its few
/// threads (two on a 2-core machine) and every actor would wait.
public enum BlockingAsync {
    public static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }

    static func run<T: Sendable>(
        cancellation: LoadCancellation, _ work: @escaping @Sendable () async throws(PlaybackError) -> T
    ) throws(PlaybackError) -> T {
        let box = ResultBox<T>()
        let task = Task {
            do throws(PlaybackError) {
                box.set(.success(try await work()))
            } catch {
                box.set(.failure(error))
            }
        }
        cancellation.onCancel { task.cancel() }
        return try box.wait().get()
    }

    private final class ResultBox<T: Sendable>: @unchecked Sendable {
        private let condition = NSCondition()
        private var result: Result<T, PlaybackError>?

        func set(_ value: Result<T, PlaybackError>) {
            condition.withLock {
                result = value
                condition.broadcast()
            }
        }

        func wait() -> Result<T, PlaybackError> {
            condition.withLock {
                while result == nil { condition.wait() }
                return result!
            }
        }
    }
}
