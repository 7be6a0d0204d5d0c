import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit
import Synchronization

/// The listener's queue played to its end, part after part. A queue is one request up to a
/// session with layers, which is a request of its own (`QueuePlan`); when a part has played to
/// its own end (`RequestEndWatch`: never after a stop, a failure or a new request), the next part
/// is read from the library as it is then and handed to `start`, on the same player. Each part's
/// entries are kept in step by its own `QueueRecorder`.
///
/// Feed it every update of the player, in order. A front end that ends at `finished` asks
/// `continuesAfterFinish()` first: a next part is on its way, so this `finished` is no end.
package final class QueuePlayback: Sendable {
    private let library: LibraryContext
    private let places: EpisodePlaces
    private let logger: Logger
    private let start: @Sendable (PlayRequest) async -> Void
    private let skipped: @Sendable (QueueEntryRecord, PlaybackError) -> Void
    private struct State {
        var plan: QueuePlan
        var recorder: QueueRecorder
        var end: RequestEndWatch
        /// A next part was started at the last `finished`.
        var continuing = false
    }

    private let state: Mutex<State>

    /// - Parameters:
    ///   - plan: the first part, already started by the caller.
    ///   - places: where each part's episodes are followed (the player's `LibraryPlayerObservers`).
    ///   - start: plays a later part (a replacement on the same player).
    ///   - skipped: an entry of a later part that cannot play (told as the first part's are).
    package init(
        library: LibraryContext, plan: QueuePlan, places: EpisodePlaces, logger: Logger, start: @escaping @Sendable (PlayRequest) async -> Void,
        skipped: @escaping @Sendable (QueueEntryRecord, PlaybackError) -> Void = { _, _ in }
    ) {
        self.library = library
        self.places = places
        self.logger = logger
        self.start = start
        self.skipped = skipped
        state = Mutex(
            State(plan: plan, recorder: QueueRecorder(store: library.store, plan: plan, places: places), end: RequestEndWatch(lastItemID: plan.request?.items.last?.track.id)))
    }

    /// The first store failure of the current part's recorder, if any.
    package var firstError: PlaybackError? { state.withLock { $0.recorder.firstError } }

    package func observe(_ update: PlayerUpdate) {
        let (recorder, next) = state.withLock { state -> (QueueRecorder, Int64?) in
            let ended = state.end.observe(update)
            return (state.recorder, ended ? state.plan.continuesFrom : nil)
        }
        recorder.observe(update)
        guard let next else { return }
        let plan: QueuePlan
        do throws(PlaybackError) {
            plan = try library.queueToPlay(from: next)
        } catch {
            logger.mappedError(error, level: .warning, "the queue's next part could not be read")
            return
        }
        for (entry, error) in plan.skipped { skipped(entry, error) }
        guard let request = plan.request else { return }
        logger.info("queue goes on", metadata: ["items": "\(request.items.count)", "layers": "\(request.layers != nil)"])
        state.withLock { state in
            state.plan = plan
            state.recorder = QueueRecorder(store: library.store, plan: plan, places: places)
            state.end = RequestEndWatch(lastItemID: request.items.last?.track.id)
            state.continuing = true
        }
        let start = start
        Task { await start(request) }
    }

    /// True once after a part ended and the next was started: that `finished` is no end.
    package func continuesAfterFinish() -> Bool {
        state.withLock { state in
            defer { state.continuing = false }
            return state.continuing
        }
    }
}
