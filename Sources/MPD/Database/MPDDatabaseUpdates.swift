import Foundation
import Synchronization

/// MPD's `update` jobs: each gets the next job id, at most one runs at a time (a request while one
/// runs is queued behind it, as mpd queues them), and `status` shows the running one's id as
/// `updating_db`. Only bookkeeping: the backend runs the indexer.
package final class MPDDatabaseUpdates: Sendable {
    private struct State {
        var lastJob = 0
        var running: Int?
        /// Jobs asked for while one ran, with whether each rereads every file.
        var waiting: [(job: Int, rescan: Bool)] = []
    }

    private let state = Mutex(State())

    package init() {}

    /// The job running now, for `status`.
    package var running: Int? { state.withLock { $0.running } }

    /// A new job: its id, and whether the caller must start it now (nothing else runs).
    package func request(rescan: Bool) -> (job: Int, startNow: Bool) {
        state.withLock { s in
            s.lastJob += 1
            let job = s.lastJob
            if s.running == nil {
                s.running = job
                return (job, true)
            }
            s.waiting.append((job, rescan))
            return (job, false)
        }
    }

    /// A job for a change seen on disk: none when one is already waiting (it will see this
    /// change too), else as `request`.
    package func requestForChange() -> (job: Int, startNow: Bool)? {
        let waiting = state.withLock { !$0.waiting.isEmpty }
        return waiting ? nil : request(rescan: false)
    }

    /// The running job ended: the next waiting one, which the caller starts, or nil.
    package func finished() -> (job: Int, rescan: Bool)? {
        state.withLock { s in
            guard !s.waiting.isEmpty else {
                s.running = nil
                return nil
            }
            let next = s.waiting.removeFirst()
            s.running = next.job
            return next
        }
    }
}
