import Foundation
import PlayerCore
import Streaming

/// The metadata service: turns ICY titles and station status APIs into `TrackUpdate`s.
///
/// Why an actor: it keeps state between calls that may come from any task (nothing asks on a timer:
/// each status request follows an ICY block); the last matched answer is cached so a repeated block
/// costs no request. Every failure (network, a malformed document, a missing mount) ends as a typed
/// `PlaybackError` in `lastError` and never blocks or alters the ICY title.
public actor MetadataService {
    /// Where a station publishes what is playing, besides its ICY titles.
    public enum StatusSource: Sendable, Equatable {
        /// Icecast's `/status-json.xsl` URL and the station's mount ("/stream").
        case icecast(URL, mount: String)
        /// A radio.co-style status API (`current_track.title`, `current_track.artwork_url_large`).
        case radioCo(URL)
    }

    /// Per-station settings, from the station record.
    public struct Configuration: Sendable {
        /// Titles that mean "the station itself" besides its name (such as "OtonFM").
        public var identityStrings: [String]
        /// Where to ask for artwork and for titles of streams without ICY metadata.
        public var statusSource: StatusSource?
        /// The configured name: the last resort for `TrackUpdate.station`, and an identity string.
        public var stationName: String?

        public init(identityStrings: [String] = [], statusSource: StatusSource? = nil, stationName: String? = nil) {
            self.identityStrings = identityStrings
            self.statusSource = statusSource
            self.stationName = stationName
        }
    }

    /// What one status document said, sanitised: the track, the station name and a checked cover URL.
    package struct StatusTrack: Sendable, Equatable {
        package var track: StreamTitle
        package var station: String?
        package var artworkURL: URL?

        package init(track: StreamTitle, station: String?, artworkURL: URL?) {
            self.track = track
            self.station = station
            self.artworkURL = artworkURL
        }
    }

    /// Stable operation names for retry statistics (never a URL or a title).
    static let icecastOperation = "metadata.icecastStatus"
    static let radioCoOperation = "metadata.radioStatus"

    private let network: NetworkClient
    private let analytics: ErrorAnalytics?
    package let configuration: Configuration
    /// The last status fetch's failure; nil after a successful one. For logs and analytics only:
    /// a failed status fetch never changes what is shown beyond the missing artwork.
    package private(set) var lastError: PlaybackError?
    private var matched: (icy: IcyMetadata, station: IcyStationInfo?, update: TrackUpdate)?

    /// - Parameter analytics: where a failed status fetch is recorded (it is not shown).
    package init(network: NetworkClient = .shared, configuration: Configuration, analytics: ErrorAnalytics? = nil) {
        self.network = network
        self.configuration = configuration
        self.analytics = analytics
    }

    /// An ICY block arrived (with the response's station info): returns the update to show. When a
    /// status source is configured it is fetched (nocache, .network preset) and its artwork URL used
    /// only when its title matches (case-, whitespace- and punctuation-tolerant match of
    /// "artist - title" or title); a mismatch or a failed fetch never blocks the ICY title.
    ///
    /// A title that is the station's identity is answered at once with `isStationIdentity` and no
    /// status request (the station logo shows for it). A block without a title, on a station with
    /// a status source, is answered from the status source alone.
    package func receive(_ icy: IcyMetadata, station: IcyStationInfo?) async -> TrackUpdate {
        let track = StreamTitle(parsing: icy.title)
        let identity = identity(station: station, status: nil)
        var update = TrackUpdate(
            title: track.title, artist: track.artist, station: stationName(station: station, status: nil),
            isStationIdentity: identity.matches(icy.title))
        guard !update.isStationIdentity, configuration.statusSource != nil else { return update }
        guard track.title != nil else { return await poll(station: station) ?? update }
        if let matched, matched.icy == icy, matched.station == station { return matched.update }

        guard let status = await currentStatus() else { return update }
        update.station = stationName(station: station, status: status)
        if TitleMatch.matches(statusTitle: status.track.combined, icy: track) {
            update.artworkURL = status.artworkURL
            matched = (icy, station, update)
        }
        return update
    }

    /// Fetches and decodes the status source once: cache-busted, retried with the `.network`
    /// preset, capped at `ServiceLimits.maxStatusBytes`. Nil when no source is configured.
    ///
    /// - Throws: the network client's typed errors; `malformedData` for a document that does not
    ///   decode; `streamUnavailable` when an Icecast status lists no source for the mount.
    package func fetchStatus() async throws(PlaybackError) -> StatusTrack? {
        guard let source = configuration.statusSource else { return nil }
        let options = NetworkClient.Options(maxBytes: ServiceLimits.maxStatusBytes, cacheBusting: true, policy: .network)
        switch source {
        case .icecast(let url, let mount):
            let status = try await network.fetch(IcecastStatus.self, from: url, operation: Self.icecastOperation, options: options)
            guard let entry = status.source(forMount: mount) else {
                throw PlaybackError(.streamUnavailable, underlying: "the Icecast status lists no source for the mount")
            }
            // Icecast names no artwork.
            return StatusTrack(track: entry.track, station: entry.serverName, artworkURL: nil)
        case .radioCo(let url):
            let status = try await network.fetch(RadioStatus.self, from: url, operation: Self.radioCoOperation, options: options)
            let current = status.currentTrack
            return StatusTrack(track: StreamTitle(parsing: current?.title), station: nil, artworkURL: current?.artwork)
        }
    }

    // MARK: - Private

    /// One status fetch that never throws: its failure is kept in `lastError` (a status API that
    /// fails never blocks the ICY title).
    private func currentStatus() async -> StatusTrack? {
        do {
            let status = try await fetchStatus()
            lastError = nil
            return status
        } catch {
            lastError = error
            await analytics?.record(error, operation: AnalyticsIdentifier(Self.operation(for: configuration.statusSource)))
            return nil
        }
    }

    private static func operation(for source: StatusSource?) -> String {
        if case .radioCo? = source { radioCoOperation } else { icecastOperation }
    }

    private func poll(station: IcyStationInfo?) async -> TrackUpdate? {
        guard let status = await currentStatus() else { return nil }
        let identity = identity(station: station, status: status)
        let isIdentity = identity.matches(status.track.combined)
        return TrackUpdate(
            title: status.track.title, artist: status.track.artist, station: stationName(station: station, status: status),
            isStationIdentity: isIdentity,
            // The answer's own title is the current one, so its artwork matches by construction.
            artworkURL: isIdentity || status.track.title == nil ? nil : status.artworkURL)
    }

    private func identity(station: IcyStationInfo?, status: StatusTrack?) -> StationIdentity {
        StationIdentity(configuration.identityStrings.map(Optional.some) + [configuration.stationName, station?.name, status?.station])
    }

    private func stationName(station: IcyStationInfo?, status: StatusTrack?) -> String? {
        station?.name ?? status?.station ?? MetadataText.line(configuration.stationName)
    }
}
