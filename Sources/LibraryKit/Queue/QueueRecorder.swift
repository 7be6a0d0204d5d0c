import Foundation
import Library
import PlayerCore
import PlayerKit
import Synchronization

/// Keeps the library's queue in step with what the player does with a queue's request: each
/// episode's place is saved as when it plays alone (its tracks are followed by the player's
/// `EpisodePlaces`), an entry that plays to its end (an episode, marked played; a session's last stage) leaves the
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
        var firstError: PlaybackError?
    }

    private let state = Mutex(State())

    package init(store: LibraryStore, plan: QueuePlan, places: EpisodePlaces) {
        self.store = store
        self.targets = plan.targets
        for (trackID, target) in plan.targets { if case .episode(let id) = target { places.follow(trackID: trackID, episode: id) } }
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
        case .notice(.trackFinished(let track), _):
            if let target = targets[track.id], lastTracks.contains(track.id) {
                write { () throws(PlaybackError) in _ = try store.removeFromQueue(target) }
            }
        default:
            break
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
