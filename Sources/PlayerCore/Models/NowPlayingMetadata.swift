import Foundation

/// What a live stream says is playing now, as the listener sees it: ICY titles and status APIs
/// resolved by the metadata service, with the kind of picture the artwork service found.
/// Every text is sanitised before it gets here.
public struct NowPlayingMetadata: Sendable, Hashable, Codable {
    /// What picture goes with the track.
    public enum ArtworkKind: String, Sendable, Hashable, Codable {
        /// The track's own cover.
        case real
        /// The station's logo: the title is the station's identity (a jingle, a station ID).
        case station
        /// Nothing better was found (no URL, a failed fetch, a mismatched status API answer).
        case `default`
    }

    public var title: String?
    public var artist: String?
    /// The station's name (from `icy-name` or the station record).
    public var station: String?
    public var artwork: ArtworkKind
    /// The picture itself, for front ends that draw it (the terminal); nil for the default.
    public var picture: ArtworkPicture?
    /// The picture as an image file on this machine, for MPRIS's `mpris:artUrl`.
    public var artworkFile: URL?

    public init(
        title: String?, artist: String?, station: String?, artwork: ArtworkKind, picture: ArtworkPicture? = nil, artworkFile: URL? = nil
    ) {
        self.title = title
        self.artist = artist
        self.station = station
        self.artwork = artwork
        self.picture = picture
        self.artworkFile = artworkFile
    }
}
