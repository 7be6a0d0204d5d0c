import Foundation
import Library
import PlayerCore
import PlayerKit
import Synchronization

/// Keeps the place of every library episode the player plays, whoever started it: the command
/// line, the library screen, the queue, the daemon's start-up item or an MPD client. A front end
/// says which of its tracks is which episode (`follow`); this map routes each update to that
/// episode's `EpisodeProgressRecorder`, so the rule for when a place is written lives in one file.
///
/// A recorder belongs to one play: it is made when its track becomes the current one (after
/// another track or none), so an episode heard to its end and started again is kept again. Only
/// the current track's recorder and the one before it are held (the outgoing track of a crossfade
/// still tells where it stopped); a long-running daemon holds no more than two.
///
/// Feed it every update of the player, in order.
package final class EpisodePlaces: Sendable {
    private let store: LibraryStore
    private let interval: TimeInterval
    private struct State {
        /// The episode behind each track id a front end named.
        var episodes: [String: Int64] = [:]
        /// This play's recorder of the current track and of the one before it, by track id.
        var recorders: [String: EpisodeProgressRecorder] = [:]
        var current: String?
        var firstError: PlaybackError?
    }

    private let state = Mutex(State())

    package init(store: LibraryStore, interval: TimeInterval = EpisodeProgressRecorder.defaultInterval) {
        self.store = store
        self.interval = interval
    }

    /// Names the episode a track of a request plays. The same track id named again keeps the
    /// recorder of a play under way.
    package func follow(trackID: String, episode: Int64) {
        state.withLock { $0.episodes[trackID] = episode }
    }

    /// Names the episode every track of `replacement` plays (an episode's request is one track).
    package func follow(_ replacement: PlayerEvent.Replacement, episode: Int64) {
        guard case .play(let request) = replacement else { return }
        for item in request.items { follow(trackID: item.track.id, episode: episode) }
    }

    /// The first store failure of any play, if any (playback went on regardless).
    package var firstError: PlaybackError? {
        state.withLock { state in state.firstError ?? state.recorders.values.lazy.compactMap(\.firstError).first }
    }

    package func observe(_ update: PlayerUpdate) {
        switch update {
        case .state(let playerState, _, _):
            becameCurrent(playerState.currentTrack?.id)
        case .position:
            recorder(for: state.withLock { $0.current })?.observe(update)
        case .notice(.savePosition(let point), _):
            recorder(for: point.track.id)?.observe(update)
        case .notice(.silenceTrimmed(let track, _), _), .notice(.trackFinished(let track), _):
            recorder(for: track.id)?.observe(update)
        default:
            break
        }
    }

    /// A new play begins when a track becomes current after another or none: its recorder is made
    /// anew, and recorders older than the previous track's are let go.
    private func becameCurrent(_ trackID: String?) {
        state.withLock { state in
            guard trackID != state.current else { return }
            let previous = state.current
            state.current = trackID
            for (id, recorder) in state.recorders where id != previous {
                if state.firstError == nil { state.firstError = recorder.firstError }
                state.recorders[id] = nil
            }
            if let trackID, let episode = state.episodes[trackID] { state.recorders[trackID] = recorder(of: episode) }
        }
    }

    /// This play's recorder of `trackID`; nil for a track that is no episode of the library.
    private func recorder(for trackID: String?) -> EpisodeProgressRecorder? {
        guard let trackID else { return nil }
        return state.withLock { state in
            if let recorder = state.recorders[trackID] { return recorder }
            // A place told before the track was ever current (a failure while it was only loading).
            guard let episode = state.episodes[trackID] else { return nil }
            let made = recorder(of: episode)
            state.recorders[trackID] = made
            return made
        }
    }

    /// A play's recorder of `episode`: the one place an episode's place is written from.
    private func recorder(of episode: Int64) -> EpisodeProgressRecorder {
        EpisodeProgressRecorder(store: store, episodeID: episode, interval: interval)
    }
}
