import Digests
import Foundation
import Media
import PlayerCore
import Streaming

/// The artwork service: finds the picture for what is playing, and says what kind of
/// picture it is (the track's cover, the station's logo, or the default), so the now-playing
/// screen never shows a stale cover for a jingle and never waits on a broken server.
///
/// Why an actor: it owns the memory cache and the table of fetches in flight; two screens asking
/// for the same cover at once share one download.
///
/// A fetch goes memory cache -> disk cache -> network. The network path is guarded:
/// http(s) only; the host's addresses must be public unless
/// `allowPrivateAddresses` (`AddressPolicy`), checked again for every redirect's target; at most
/// `maxBytes` (5 MB) of body; at most `StreamingLimits.maxRedirects` redirects; a `Content-Type` that can be an image; PNG or JPEG magic bytes; and
/// the bytes must decode. Transient failures (connection errors, 408/429/5xx) are retried with
/// `BackoffPolicy.artwork` (retries after 2 s, 4 s and 6 s) and every attempt
/// carries `nocache=<ms>` so no cache in between answers
/// with an old picture. A wrong or undecodable body is not retried: the same bytes would come back.
///
/// A fetch in flight runs to its end even when the caller that started it is cancelled (others may
/// be waiting for it); it is bounded by the per-attempt timeout and the retry schedule. Failures
/// are not cached: the next track change asks again.
public actor ArtworkService {
    /// What a deployment decides: where the disk cache lives, whether LAN addresses are allowed,
    /// the size cap, and the station's own logo.
    public struct Configuration: Sendable {
        /// The disk cache directory; nil = `$XDG_CACHE_HOME/tonearm/artwork` (or
        /// `~/.cache/tonearm/artwork`).
        public var cacheDirectory: URL?
        /// Allow loopback and private hosts: tests (a server on 127.0.0.1) and a station on the LAN.
        public var allowPrivateAddresses: Bool
        /// Largest image body accepted, bytes.
        public var maxBytes: Int
        /// The logo shown while the station identifies itself (a jingle, a station ID).
        public var stationLogoURL: URL?
        /// Pictures kept in memory.
        public var memoryEntries: Int

        public init(
            cacheDirectory: URL? = nil, allowPrivateAddresses: Bool = false, maxBytes: Int = ServiceLimits.maxArtworkBytes,
            stationLogoURL: URL? = nil, memoryEntries: Int = ServiceLimits.artworkMemoryEntries
        ) {
            self.cacheDirectory = cacheDirectory
            self.allowPrivateAddresses = allowPrivateAddresses
            self.maxBytes = maxBytes
            self.stationLogoURL = stationLogoURL
            self.memoryEntries = memoryEntries
        }
    }

    /// The `Accept` header of artwork requests: the two formats that are decoded.
    static let accept = "image/png, image/jpeg;q=0.9, image/*;q=0.5"

    private let network: NetworkClient
    private let analytics: ErrorAnalytics?
    package nonisolated let configuration: Configuration
    private let policy: AddressPolicy
    private let disk: ArtworkDiskCache
    private var memory: ArtworkMemoryCache
    private var inFlight: [String: Task<Result<CachedImage, PlaybackError>, Never>] = [:]

    /// - Parameters:
    ///   - network: the program's HTTP client wrapper; tests pass one with an immediate clock so
    ///     retries do not wait.
    ///   - analytics: where a failed fetch is recorded (the listener sees the default picture).
    package init(network: NetworkClient = .shared, configuration: Configuration = .init(), analytics: ErrorAnalytics? = nil) {
        self.network = network
        self.analytics = analytics
        self.configuration = configuration
        policy = AddressPolicy(allowPrivateAddresses: configuration.allowPrivateAddresses)
        disk = ArtworkDiskCache(
            directory: configuration.cacheDirectory ?? ArtworkDiskCache.defaultDirectory(), maxBytes: configuration.maxBytes)
        memory = ArtworkMemoryCache(capacity: configuration.memoryEntries)
    }

    /// The directory pictures are cached in.
    package nonisolated var cacheDirectory: URL { disk.directory }

    /// The picture for a track: `isStationIdentity` -> the station logo (fetched from
    /// `stationLogoURL` when set, kind `.station`, even if that fetch fails it is still kind
    /// `.station` with nil data); an `artworkURL` -> fetched and guarded (kind `.real`); anything
    /// failing -> kind `.default`. Never throws: a missing cover is not an error the listener
    /// needs to see.
    package func artwork(artworkURL: URL?, isStationIdentity: Bool) async -> Artwork {
        lastError = nil
        if isStationIdentity {
            let empty = Artwork(kind: .station, data: nil, width: nil, height: nil, averageColor: nil)
            guard let logo = configuration.stationLogoURL, let picture = await loadRecordingFailure(logo) else { return empty }
            return picture.with(kind: .station)
        }
        guard let url = artworkURL, let picture = await loadRecordingFailure(url) else { return .placeholder }
        return picture
    }

    static let operation: AnalyticsIdentifier = "loadArtwork"

    /// `artwork`'s picture as a plain image file (`<hash>.png` or `.jpg` beside the cache), for
    /// MPRIS clients that show `mpris:artUrl`; written once, nil without bytes or when it cannot
    /// be written.
    package nonisolated func imageFile(for artwork: Artwork) -> URL? {
        guard let data = artwork.data, let kind = ImageKind.detect(data) else { return nil }
        let name = SHA2.sha256.hash(data).prefix(16).lowercaseHexadecimal
        let file = disk.directory.appendingPathComponent("files", isDirectory: true)
            .appendingPathComponent("\(name).\(kind == .png ? "png" : "jpg")")
        if FileManager.default.fileExists(atPath: file.path) { return file }
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try data.write(to: file, options: .atomic)
            return file
        } catch {
            return nil
        }
    }

    /// The last `artwork(artworkURL:isStationIdentity:)` fetch's failure; nil after one that
    /// worked or needed no fetch. Front ends show it as an inline error.
    package private(set) var lastError: PlaybackError?

    private func loadRecordingFailure(_ url: URL) async -> Artwork? {
        do {
            let picture = try await load(url)
            lastError = nil
            return picture
        } catch {
            lastError = error
            await analytics?.record(error, operation: Self.operation)
            return nil
        }
    }

    /// The guarded fetch itself (kind `.real`), from the caches when they hold the URL.
    ///
    /// - Throws: non-http(s) URL or refused address -> `streamUnavailable`; a name that does not
    ///   resolve -> `dnsFailure`; body over the cap -> `documentTooLarge`; wrong content type or
    ///   magic bytes -> `wrongContentType`; undecodable -> `corruptData`; network errors as
    ///   `NetworkClient` throws them (after its retries).
    package func load(_ url: URL) async throws(PlaybackError) -> Artwork {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", AddressPolicy.host(of: url) != nil else {
            throw PlaybackError(.streamUnavailable, underlying: "artwork URL is not http(s)")
        }
        let key = ArtworkCacheKey.key(for: url)
        if let hit = memory.get(key) { return Self.artwork(hit) }

        let task: Task<Result<CachedImage, PlaybackError>, Never>
        if let running = inFlight[key] {
            task = running
        } else {
            let (network, policy, disk, maxBytes) = (network, policy, disk, configuration.maxBytes)
            task = Task.detached {
                await Self.fetch(url, key: key, network: network, policy: policy, disk: disk, maxBytes: maxBytes)
            }
            inFlight[key] = task
        }
        let result = await task.value
        if inFlight[key] == task { inFlight[key] = nil }
        switch result {
        case .success(let entry):
            memory.put(key, entry)
            return Self.artwork(entry)
        case .failure(let error):
            throw error
        }
    }

    private static func artwork(_ entry: CachedImage) -> Artwork {
        Artwork(kind: .real, data: entry.data, width: entry.image.width, height: entry.image.height, averageColor: entry.image.averageColor)
    }

    /// Disk cache, then the guarded network fetch; stores what it fetched. Runs off the actor:
    /// resolving, downloading and decoding must not hold up other callers.
    private static func fetch(
        _ url: URL, key: String, network: NetworkClient, policy: AddressPolicy, disk: ArtworkDiskCache, maxBytes: Int
    ) async -> Result<CachedImage, PlaybackError> {
        if let cached = disk.read(key) { return .success(cached) }
        do throws(PlaybackError) {
            // Every hop is checked, redirects included: a public URL cannot redirect inward.
            let options = NetworkClient.Options(
                maxBytes: maxBytes, cacheBusting: true, policy: .artwork, accept: accept,
                checkTarget: { target throws(PlaybackError) in try await policy.check(target) })
            let response = try await network.data(from: url, operation: "artwork", options: options)
            guard ImageKind.isAcceptable(mediaType: response.mediaType) else {
                throw PlaybackError(.wrongContentType, underlying: "artwork served as \(response.mediaType ?? "?")")
            }
            let kind: ImageKind
            switch ImageKind.sniff(response.body) {
            case .supported(let found): kind = found
            case let other: throw PlaybackError(.wrongContentType, underlying: "artwork bytes are \(other), not PNG or JPEG")
            }
            let entry = CachedImage(data: response.body, image: try ImageDecoder.decode(response.body, kind: kind))
            disk.write(key, entry)
            return .success(entry)
        } catch {
            return .failure(error)
        }
    }
}
