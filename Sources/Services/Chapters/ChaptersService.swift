import Foundation
import PlayerCore
import Streaming

/// Fetches an episode's Podcasting 2.0 JSON chapters (the feed's `podcast:chapters` address) with
/// the same guards as artwork, since the address is named by a feed the listener does not control:
/// http(s) only; the host's addresses must be public unless `allowPrivateAddresses`
/// (`AddressPolicy`), checked again for every redirect's target; at most `maxBytes` of body; a
/// `Content-Type` that can be JSON (a web page is refused); then `ChapterDocument` parses it.
///
/// Chapters are a nicety: a failure is recorded in the analytics and handed back for the player's
/// log (its code, never the address), and the episode plays without them. Transient failures are retried with the
/// artwork preset; nothing is cached, as a document is small and asked for once per play.
public struct ChaptersService: Sendable {
    public struct Configuration: Sendable {
        /// Allow loopback and private hosts: tests (a server on 127.0.0.1) and a feed on the LAN.
        public var allowPrivateAddresses: Bool
        /// Largest document accepted, bytes.
        public var maxBytes: Int

        public init(allowPrivateAddresses: Bool = false, maxBytes: Int = ServiceLimits.maxChaptersBytes) {
            self.allowPrivateAddresses = allowPrivateAddresses
            self.maxBytes = maxBytes
        }
    }

    /// What the format's own type is, then what servers commonly send for a JSON file.
    static let accept = "application/json+chapters, application/json;q=0.9, */*;q=0.1"
    static let operation: AnalyticsIdentifier = "loadChapters"

    private let network: NetworkClient
    private let configuration: Configuration
    private let analytics: ErrorAnalytics?

    package init(network: NetworkClient = .shared, configuration: Configuration = .init(), analytics: ErrorAnalytics? = nil) {
        self.network = network
        self.configuration = configuration
        self.analytics = analytics
    }

    /// The chapters at `url` for the track `trackID`, or the failure, already recorded in the
    /// analytics: never an error the listener has to see.
    package func chapters(at url: URL, trackID: String) async -> Result<ChapterList, PlaybackError> {
        do throws(PlaybackError) {
            return .success(try await load(url, trackID: trackID))
        } catch {
            await analytics?.record(error, operation: Self.operation)
            return .failure(error)
        }
    }

    /// The guarded fetch and the parse.
    ///
    /// - Throws: not http(s) or a refused address -> `streamUnavailable` or `permissionDenied`; a
    ///   name that does not resolve -> `dnsFailure`; a body over the cap -> `documentTooLarge`; a
    ///   type or first byte that is not JSON -> `wrongContentType`; not the chapters format ->
    ///   `malformedData`; network errors as `NetworkClient` throws them (after its retries).
    package func load(_ url: URL, trackID: String) async throws(PlaybackError) -> ChapterList {
        let policy = AddressPolicy(allowPrivateAddresses: configuration.allowPrivateAddresses)
        try await policy.check(url)
        let options = NetworkClient.Options(
            maxBytes: configuration.maxBytes, policy: .artwork, accept: Self.accept,
            checkTarget: { target throws(PlaybackError) in try await policy.check(target) })
        let response = try await network.data(from: url, operation: "chapters", options: options)
        guard Self.isAcceptable(mediaType: response.mediaType) else {
            throw PlaybackError(.wrongContentType, underlying: "chapters served as \(response.mediaType ?? "?")")
        }
        guard let first = response.body.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }), first == UInt8(ascii: "{")
        else {
            throw PlaybackError(.wrongContentType, underlying: "chapters body is not a JSON object")
        }
        return try ChapterDocument.parse(response.body, trackID: trackID, maxBytes: configuration.maxBytes)
    }

    /// JSON by its type, or the generic types static hosts give any file; never a web page, a
    /// picture or audio.
    static func isAcceptable(mediaType: String?) -> Bool {
        guard let mediaType, !mediaType.isEmpty else { return true }
        if mediaType.hasSuffix("json") || mediaType.hasSuffix("+json") || mediaType.hasPrefix("application/json") { return true }
        return ["text/plain", "application/octet-stream", "binary/octet-stream"].contains(mediaType)
    }
}
