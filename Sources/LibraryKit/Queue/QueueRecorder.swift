import Foundation
import Library
import PlayerCore
import PlayerKit
import Synchronization

/// Keeps the library's queue in step with what the player does with a queue's request: each
/// episode's place is saved as when it plays alone (`EpisodeProgressRecorder`, one per episode),
/// an entry that plays to its end (an episode, marked played; a session's last stage) leaves the
/// queue, and so does any entry the player moves past (Next). Stopping leaves the queue as it is.
///
/// Feed it every update of the player, in order, like `EpisodeProgressRecorder`.
package final class QueueRecorder: Sendable {
    private let store: LibraryStore
    private let targets: [String: QueueTarget]
    /// The track id of each entry's last item: when it ends by itself, so has the entry.
    private let lastTracks: Set<String>
    private struct State {
        var current: String?
        var episodes: [Int64: EpisodeProgressRecorder] = [:]
        var firstError: PlaybackError?
    }

    private let state = Mutex(State())

    package init(store: LibraryStore, plan: QueuePlan) {
        self.store = store
        self.targets = plan.targets
        var last: [QueueTarget: String] = [:]
        for item in plan.request?.items ?? [] { if let target = plan.targets[item.track.id] { last[target] = item.track.id } }
        lastTracks = Set(last.values)
    }

    /// The first store failure, if any (playback went on regardless).
    package var firstError: PlaybackError? { state.withLock { $0.firstError } }

    package func observe(_ update: PlayerUpdate) {
        switch update {
        case .state(let playerState, _, _):
            guard let track = playerState.currentTrack else { return }
            let left: String? = state.withLock { state in
                defer { state.current = track.id }
                guard let previous = state.current, previous != track.id, targets[previous] != targets[track.id] else { return nil }
                return previous
            }
            if let left, let target = targets[left] { write { () throws(PlaybackError) in _ = try store.removeFromQueue(target) } }
        case .position:
            if let recorder = recorder(for: state.withLock { $0.current }) { recorder.observe(update) }
        case .notice(.savePosition(let point), _):
            recorder(for: point.track.id)?.observe(update)
        case .notice(.silenceTrimmed(let track, _), _):
            recorder(for: track.id)?.observe(update)
        case .notice(.trackFinished(let track), _):
            recorder(for: track.id)?.observe(update)
            if let target = targets[track.id], lastTracks.contains(track.id) {
                write { () throws(PlaybackError) in _ = try store.removeFromQueue(target) }
            }
        default:
            break
        }
    }

    /// The recorder of the episode behind `trackID`, made on first use; nil for anything else.
    private func recorder(for trackID: String?) -> EpisodeProgressRecorder? {
        guard let trackID, case .episode(let id)? = targets[trackID] else { return nil }
        return state.withLock { state in
            if let recorder = state.episodes[id] { return recorder }
            let recorder = EpisodeProgressRecorder(store: store, episodeID: id)
            state.episodes[id] = recorder
            return recorder
        }
    }

    private func write(_ body: () throws(PlaybackError) -> Void) {
        do {
            try body()
        } catch {
            state.withLock { if $0.firstError == nil { $0.firstError = error } }
        }
    }
}
