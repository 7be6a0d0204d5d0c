import AudioEngine
import Foundation
import Library
import PlayerCore
import PlayerKit
import Synchronization

/// Keeps an episode's place in the library while it plays: the position is written at least
/// every `interval` seconds of listening and whenever the player asks (pause, stop, failure), and
/// the episode is marked played (its place the end) when it ends. A `kill -9` therefore loses at most `interval`
/// seconds; every write is its own committed SQLite transaction.
///
/// Decisions are the pure `shouldSave`; `observe` performs them. Store failures do not stop
/// playback: they are counted and the first one is kept for the caller to report.
package final class EpisodeProgressRecorder: Sendable {
    /// Seconds of playback between two saves. Below 5 s so a crash between two saves
    /// still loses less than 5 s.
    package static let defaultInterval: TimeInterval = 4

    package let episodeID: Int64
    private let store: LibraryStore
    private let interval: TimeInterval
    private struct Progress {
        var lastSaved: TimeInterval?
        var duration: TimeInterval?
        var finished = false
        var firstError: PlaybackError?
        /// The trimmed silence of this play already added to the library.
        var trimmedKept: TimeInterval = 0
    }

    private let progress = Mutex(Progress())

    package init(store: LibraryStore, episodeID: Int64, interval: TimeInterval = EpisodeProgressRecorder.defaultInterval) {
        self.store = store
        self.episodeID = episodeID
        self.interval = interval
    }

    /// The first store failure, if any (playback went on regardless).
    package var firstError: PlaybackError? { progress.withLock { $0.firstError } }

    /// True when a position this far from the last saved one should be written now.
    package static func shouldSave(position: TimeInterval, lastSaved: TimeInterval?, interval: TimeInterval) -> Bool {
        guard let lastSaved else { return position >= interval }
        return abs(position - lastSaved) >= interval
    }

    /// Feeds one player update (call it for every update, in order).
    package func observe(_ update: PlayerUpdate) {
        switch update {
        case .position(let seconds, let duration, _):
            let save = progress.withLock { progress -> Bool in
                if let duration { progress.duration = duration }
                guard !progress.finished, Self.shouldSave(position: seconds, lastSaved: progress.lastSaved, interval: interval) else {
                    return false
                }
                progress.lastSaved = seconds
                return true
            }
            if save { write { () throws(PlaybackError) in try store.savePosition(episodeID: episodeID, position: seconds, duration: duration) } }
        case .notice(.savePosition(let point), _) where point.track.kind == .episode:
            let known: TimeInterval?? = progress.withLock { progress in
                guard !progress.finished else { return nil }
                progress.lastSaved = point.position
                return .some(progress.duration)
            }
            if let known {
                write { () throws(PlaybackError) in
                    try store.savePosition(episodeID: episodeID, position: point.position, duration: point.duration ?? known)
                }
            }
        case .notice(.silenceTrimmed(let track, let seconds), _) where track.kind == .episode:
            // The player tells a play's running total; the library adds up what is new. A smaller
            // total is a new deck (a reload after a seek or a reconnect): all of it is new.
            let added = progress.withLock { progress -> TimeInterval in
                defer { progress.trimmedKept = seconds }
                return seconds >= progress.trimmedKept ? seconds - progress.trimmedKept : seconds
            }
            write { () throws(PlaybackError) in try store.addTrimmedSilence(episodeID: episodeID, seconds: added) }
        case .notice(.trackFinished(let track), _) where track.kind == .episode:
            let duration = progress.withLock { progress -> TimeInterval? in
                progress.finished = true
                return progress.duration
            }
            write { () throws(PlaybackError) in
                // Heard to the end: the place is the end, and the length the player measured is
                // kept (what a sync server needs to hear "finished").
                if let duration, duration.isFinite, duration > 0 {
                    try store.savePosition(episodeID: episodeID, position: duration, duration: duration)
                }
                try store.markPlayed(episodeID: episodeID)
            }
        default:
            break
        }
    }

    private func write(_ body: () throws(PlaybackError) -> Void) {
        do {
            try body()
        } catch {
            progress.withLock { if $0.firstError == nil { $0.firstError = error } }
        }
    }
}
