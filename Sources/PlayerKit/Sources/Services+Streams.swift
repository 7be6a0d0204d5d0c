import Foundation
import PlayerCore
import Services

extension TonearmPlayer.Services {
    /// The services for playing `tracks`: titles (with the station's identity strings and an
    /// optional status API), artwork (with the station's logo), and a connectivity monitor only
    /// when a source is off this machine, since a loopback stream plays without a network.
    /// `allowPrivateArtwork` lets artwork and an episode's chapters come from loopback and private
    /// addresses.
    package static func forStreams(
        _ tracks: [Track], identities: [String] = [], status: MetadataService.StatusSource? = nil, stationLogo: URL? = nil,
        allowPrivateArtwork: Bool = false
    ) -> TonearmPlayer.Services {
        var metadata = MetadataService.Configuration()
        metadata.identityStrings = identities
        metadata.statusSource = status
        var artwork = ArtworkService.Configuration()
        artwork.allowPrivateAddresses = allowPrivateArtwork
        artwork.stationLogoURL = stationLogo
        let needsNetwork = tracks.contains { track in
            guard track.isRemote, let host = track.url.host?.lowercased() else { return false }
            return !(host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]")
        }
        return TonearmPlayer.Services(metadata: metadata, artwork: artwork, connectivity: needsNetwork ? ConnectivityMonitor() : nil)
    }
}
