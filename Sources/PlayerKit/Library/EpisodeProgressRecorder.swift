import AudioEngine
import Foundation
import Library
import PlayerCore

/// Keeps an episode's place in the library while it plays: the position is written at least
/// every `interval` seconds of listening and whenever the player asks (pause, stop, failure), and
/// the episode is marked played when it ends. A `kill -9` therefore loses at most `interval`
/// seconds; every write is its own committed SQLite transaction.
///
/// Decisions are the pure `shouldSave`; `observe` performs them. Store failures do not stop
/// playback: they are counted and the first one is kept for the caller to report.
public final class EpisodeProgressRecorder: @unchecked Sendable {
    /// Seconds of playback between two saves. Below 5 s so a crash between two saves
    /// still loses less than 5 s.
    public static let defaultInterval: TimeInterval = 4

    public let episodeID: Int64
    private let store: LibraryStore
    private let interval: TimeInterval
    private let lock = NSLock()
    private var lastSaved: TimeInterval?
    private var duration: TimeInterval?
    private var finished = false
    private var _firstError: PlaybackError?

    public init(store: LibraryStore, episodeID: Int64, interval: TimeInterval = EpisodeProgressRecorder.defaultInterval) {
        self.store = store
        self.episodeID = episodeID
        self.interval = interval
    }

    /// The first store failure, if any (playback went on regardless).
    public var firstError: PlaybackError? { lock.withLock { _firstError } }

    /// True when a position this far from the last saved one should be written now.
    public static func shouldSave(position: TimeInterval, lastSaved: TimeInterval?, interval: TimeInterval) -> Bool {
        guard let lastSaved else { return position >= interval }
        return abs(position - lastSaved) >= interval
    }

    /// Feeds one player update (call it for every update, in order).
    public func observe(_ update: PlayerUpdate) {
        switch update {
        case .position(let seconds, let duration, _):
            let save = lock.withLock { () -> Bool in
                if let duration { self.duration = duration }
                guard !finished, Self.shouldSave(position: seconds, lastSaved: lastSaved, interval: interval) else { return false }
                lastSaved = seconds
                return true
            }
            if save { write { () throws(PlaybackError) in try store.savePosition(episodeID: episodeID, position: seconds, duration: duration) } }
        case .notice(.savePosition(let point), _) where point.track.kind == .episode:
            let skip = lock.withLock { () -> Bool in
                guard !finished else { return true }
                lastSaved = point.position
                return false
            }
            if !skip {
                write { () throws(PlaybackError) in
                    try store.savePosition(episodeID: episodeID, position: point.position, duration: point.duration ?? duration)
                }
            }
        case .notice(.trackFinished(let track), _) where track.kind == .episode:
            lock.withLock { finished = true }
            write { () throws(PlaybackError) in try store.markPlayed(episodeID: episodeID) }
        default:
            break
        }
    }

    private func write(_ body: () throws(PlaybackError) -> Void) {
        do {
            try body()
        } catch {
            lock.withLock { if _firstError == nil { _firstError = error } }
        }
    }
}
