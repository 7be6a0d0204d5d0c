import AudioEngine
import Foundation
import PlayerCore

/// Async work run from a loader thread, which waits for it: written by hand because the standard
/// library has no such bridge, on purpose. Decoder factories run on their own threads (never the
/// concurrency pool), so blocking there is safe; `load` cancellation cancels the task. The other
/// way (blocking work awaited from async code) is `BlockingCall.onOwnThread`.
enum BlockingAsync {
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
