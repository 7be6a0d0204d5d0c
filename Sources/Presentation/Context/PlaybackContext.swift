import Foundation
import PlayerCore

/// What the app knows around a `PlayerState`: the item being played (episode and podcast, or
/// station), the network, where the current track is, the current instant and the language.
///
/// The caller passes the context of the item the state is about; view states trust it. Titles are
/// sanitised on entry (as `Track` and `Episode` already do).
package struct PlaybackContext: Sendable, Hashable, Codable {
    /// The episode being played or that failed (even one without audio).
    package var episode: Episode?
    /// The podcast's title; falls back to `episode.podcastTitle`.
    package var podcastTitle: String? {
        didSet { podcastTitle = TextSanitizer.optionalSingleLine(podcastTitle) }
    }
    /// The station being played, for live streams.
    package var station: Station?
    package var connectivity: Connectivity
    /// Position (s) in the current track, as last reported by the engine.
    package var position: TimeInterval?
    /// Duration (s) of the current track when known better than `Track.duration` (probed, or the feed's).
    package var duration: TimeInterval?
    /// The current instant on the player's clock, for the reconnect countdown.
    package var now: PlayerTime?
    package var language: Language
    /// What a live stream says is on now (its ICY title, split, and the station's name).
    package var nowPlaying: NowPlayingMetadata?

    package init(
        episode: Episode? = nil,
        podcastTitle: String? = nil,
        station: Station? = nil,
        connectivity: Connectivity = .unknown,
        position: TimeInterval? = nil,
        duration: TimeInterval? = nil,
        now: PlayerTime? = nil,
        language: Language = .current,
        nowPlaying: NowPlayingMetadata? = nil
    ) {
        self.nowPlaying = nowPlaying
        self.episode = episode
        self.podcastTitle = TextSanitizer.optionalSingleLine(podcastTitle)
        self.station = station
        self.connectivity = connectivity
        self.position = position
        self.duration = duration
        self.now = now
        self.language = language
    }

    /// The podcast title to show: the explicit one, else the episode's.
    package var effectivePodcastTitle: String? { podcastTitle ?? episode?.podcastTitle }
}
