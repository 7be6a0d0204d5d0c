import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit
import Synchronization

/// Keeps every title heard on a station in the library's history, and likes the one playing now.
///
/// A title counts when a live stream's metadata names a track (not the station's own identity,
/// such as a jingle or its name); the station is the name the listener knows it by (the track's
/// title, which for a library station is its name, unless it is only the host), else the
/// stream's `icy-name`, else its host.
/// Repeats are left to the store (`recordHeard`). Store failures do not stop playback: they are
/// logged. Nothing here leaves the machine.
package final class TitleHistoryRecorder: Sendable {
    private let store: LibraryStore
    private let now: @Sendable () -> Date
    private let logger: Logger
    private struct Listening {
        var station: Track?
        var current: HeardTitle?
    }

    private let listening = Mutex(Listening())

    package init(store: LibraryStore, now: @escaping @Sendable () -> Date = Date.init, logger: Logger) {
        self.store = store
        self.now = now
        self.logger = logger
    }

    /// The title playing now on the station, once one was heard (what `like` keeps).
    package var current: HeardTitle? { listening.withLock { $0.current } }

    /// Feeds one player update (call it for every update, in order).
    package func observe(_ update: PlayerUpdate) {
        switch update {
        case .state(let state, _, _):
            let track = state.currentTrack.flatMap { $0.kind == .liveStream ? $0 : nil }
            listening.withLock { listening in
                if listening.station?.id != track?.id || listening.station?.url != track?.url { listening.current = nil }
                listening.station = track
            }
        case .notice(.metadata(let metadata), _):
            guard metadata.artwork != .station, let title = metadata.title,
                let station = listening.withLock({ $0.station })
            else {
                // A jingle, the station's name or no title: no song plays now, so none is liked.
                listening.withLock { $0.current = nil }
                return
            }
            let name = Self.stationName(station, metadata: metadata)
            // Kept and made current in one step: a like that comes as the title is being kept
            // waits for it, and never finds the one before.
            listening.withLock { listening in
                do throws(PlaybackError) {
                    listening.current = try store.recordHeard(title: title, artist: metadata.artist, station: name, at: now())
                } catch {
                    listening.current = nil
                    logger.mappedError(error, level: .warning, "title not kept in the history")
                }
            }
        default:
            break
        }
    }

    /// Likes the title playing now; nil when no title was heard yet on this station.
    @discardableResult
    package func likeCurrent() throws(PlaybackError) -> FavouriteSong? {
        guard let heard = current else { return nil }
        return try store.like(title: heard.title, artist: heard.artist, station: heard.station, heardAt: heard.heardAt, at: now())
    }

    static func stationName(_ track: Track, metadata: NowPlayingMetadata) -> String {
        // A stream named on the command line is titled by its host: its icy-name says more.
        let named = track.title == track.url.host ? nil : track.title
        return [named, metadata.station, track.url.host].lazy.compactMap { $0 }.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "?"
    }
}
