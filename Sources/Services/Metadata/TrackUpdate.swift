import Foundation
import PlayerCore

/// What the metadata service tells the player to show for the current track. Every text is
/// sanitised before it gets here; a value type so the player can compare updates and skip repeats.
package struct TrackUpdate: Sendable, Equatable {
    /// Sanitised; nil when absent or blank.
    package var title: String?
    /// Sanitised; nil when the title has no "Artist - Title" separator.
    package var artist: String?
    /// `icy-name`, else the status document's `server_name`, else the configured name.
    package var station: String?
    /// The title is the station's identity (its name, a jingle): show the station logo.
    package var isStationIdentity: Bool
    /// Only from a status API answer whose title matches the current title (the
    /// track-mismatch rule of `TitleMatch`), and only http(s); nil otherwise.
    package var artworkURL: URL?

    package init(title: String? = nil, artist: String? = nil, station: String? = nil, isStationIdentity: Bool = false, artworkURL: URL? = nil) {
        self.title = title
        self.artist = artist
        self.station = station
        self.isStationIdentity = isStationIdentity
        self.artworkURL = artworkURL
    }

    /// The update as PlayerCore's now-playing model: the logo for the station's identity, a real
    /// cover when a matching artwork URL exists, the default picture otherwise.
    package var nowPlaying: NowPlayingMetadata {
        let kind: NowPlayingMetadata.ArtworkKind = isStationIdentity ? .station : (artworkURL != nil ? .real : .default)
        return NowPlayingMetadata(title: title, artist: artist, station: station, artwork: kind)
    }
}
