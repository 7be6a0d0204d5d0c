import Foundation
import Media
import PlayerCore
import Services
import Streaming

/// Turns what streams report (station headers, ICY titles) into what the listener sees: the
/// metadata service splits and checks titles (status APIs included), the artwork service finds the
/// picture and its kind. Events are handled one at a time, in order, and only changes come out.
package actor NowPlayingPipeline {
    private let metadata: MetadataService
    private let artwork: ArtworkService
    private var station: IcyStationInfo?
    private var last: NowPlayingMetadata?

    package init(metadata: MetadataService, artwork: ArtworkService) {
        self.metadata = metadata
        self.artwork = artwork
    }

    /// What one event changes: the now-playing line (nil when nothing the listener sees
    /// changed) and a service's new failure to show (nil when none, or the same one again).
    package struct Output: Sendable {
        package var metadata: NowPlayingMetadata?
        package var problem: PlaybackError?
    }

    private var lastProblem: PlaybackError?

    package func handle(_ event: StreamEvent) async -> Output {
        let metadata = await nowPlaying(after: event)
        let artworkProblem = await artwork.lastError
        let statusProblem = await self.metadata.lastError
        let problem = artworkProblem ?? statusProblem
        defer { lastProblem = problem }
        return Output(metadata: metadata, problem: problem == lastProblem ? nil : problem)
    }

    /// The now-playing line after `event`, or nil when nothing the listener sees changed.
    private func nowPlaying(after event: StreamEvent) async -> NowPlayingMetadata? {
        let next: NowPlayingMetadata
        switch event {
        case .connected(let track, let info):
            station = info
            // Until the first title: the station, with its logo.
            let name = info.name ?? track.title
            next = NowPlayingMetadata(
                title: last?.title, artist: last?.artist, station: name, artwork: last?.artwork ?? .default)
        case .metadata(_, let icy, let info):
            if !info.isEmpty { station = info }
            let update = await metadata.receive(icy, station: station)
            let picture = await artwork.artwork(artworkURL: update.artworkURL, isStationIdentity: update.isStationIdentity)
            next = NowPlayingMetadata(
                title: update.title, artist: update.artist, station: update.station ?? station?.name, artwork: picture.kind,
                picture: Self.thumbnail(of: picture), artworkFile: artwork.imageFile(for: picture))
        }
        guard next != last else { return nil }
        last = next
        return next
    }

    /// Side of the square thumbnail front ends get (terminal cells are about twice as tall as
    /// wide, and half blocks give two pixels per cell, so 48 x 48 fills 48 x 24 cells).
    static let thumbnailSide = 48

    /// The picture shrunk for text front ends; nil without bytes or when they do not decode.
    static func thumbnail(of artwork: Artwork) -> ArtworkPicture? {
        guard let data = artwork.data, let kind = ImageKind.detect(data), let average = artwork.averageColor,
            let cells = try? ImageDecoder.thumbnail(data, kind: kind, columns: thumbnailSide, rows: thumbnailSide)
        else { return nil }
        return ArtworkPicture(
            columns: thumbnailSide, rows: thumbnailSide, rgb: cells.flatMap { [$0.red, $0.green, $0.blue] },
            accent: [average.red, average.green, average.blue])
    }
}
