import Foundation
import PlayerCore
import Streaming

/// Fetches a transcript a feed names (`podcast:transcript`) under the rules chapters and artwork
/// follow, since the address comes from a feed the listener does not control: http(s) only; the
/// host's addresses must be public unless `allowPrivateAddresses` (`AddressPolicy`), checked again
/// for every redirect's target; at most `maxBytes` of body; a `Content-Type` that can be the
/// format (audio, pictures and, for a timed format, a web page are refused); then
/// `TranscriptDocument` reads it.
public struct TranscriptService: Sendable {
    public struct Configuration: Sendable {
        /// Allow loopback and private hosts: tests (a server on 127.0.0.1) and a feed on the LAN.
        public var allowPrivateAddresses: Bool
        /// Largest document accepted, bytes.
        public var maxBytes: Int

        public init(allowPrivateAddresses: Bool = false, maxBytes: Int = ServiceLimits.maxTranscriptBytes) {
            self.allowPrivateAddresses = allowPrivateAddresses
            self.maxBytes = maxBytes
        }
    }

    private let network: NetworkClient
    private let configuration: Configuration

    package init(network: NetworkClient = .shared, configuration: Configuration = .init()) {
        self.network = network
        self.configuration = configuration
    }

    /// The guarded fetch and the parse.
    ///
    /// - Throws: not http(s) or a refused address -> `streamUnavailable` or `permissionDenied`; a
    ///   name that does not resolve -> `dnsFailure`; a body over the cap -> `documentTooLarge`; a
    ///   type that cannot be `format` -> `wrongContentType`; nothing of the format in it ->
    ///   `malformedData`; network errors as `NetworkClient` throws them (after its retries).
    package func load(_ url: URL, format: TranscriptFormat) async throws(PlaybackError) -> Transcript {
        let policy = AddressPolicy(allowPrivateAddresses: configuration.allowPrivateAddresses)
        try await policy.check(url)
        let options = NetworkClient.Options(
            maxBytes: configuration.maxBytes, policy: .artwork, accept: Self.accept(format),
            checkTarget: { target throws(PlaybackError) in try await policy.check(target) })
        let response = try await network.data(from: url, operation: "transcript", options: options)
        guard Self.isAcceptable(mediaType: response.mediaType, for: format) else {
            throw PlaybackError(.wrongContentType, underlying: "\(format.rawValue) transcript served as \(response.mediaType ?? "?")")
        }
        return try TranscriptDocument.parse(response.body, format: format, maxBytes: configuration.maxBytes)
    }

    static func accept(_ format: TranscriptFormat) -> String {
        switch format {
        case .webVTT: "text/vtt, text/plain;q=0.5, */*;q=0.1"
        case .srt: "application/x-subrip, application/srt, text/plain;q=0.5, */*;q=0.1"
        case .json: "application/json, */*;q=0.1"
        case .html: "text/html, */*;q=0.1"
        }
    }

    /// What a server may call the format: its own types, the generic ones static hosts give any
    /// file, and text. Never audio, a picture or video; a web page only for an HTML transcript
    /// (a timed format served as HTML is a login or error page).
    static func isAcceptable(mediaType: String?, for format: TranscriptFormat) -> Bool {
        guard let mediaType, !mediaType.isEmpty else { return true }
        if mediaType.hasPrefix("audio/") || mediaType.hasPrefix("image/") || mediaType.hasPrefix("video/") { return false }
        if let named = TranscriptFormat(mimeType: mediaType) {
            // SRT and WebVTT are read by one parser: either type will do for either.
            return named == format || (named.isTimed && format.isTimed && named != .json && format != .json)
        }
        return mediaType.hasPrefix("text/") || ["application/octet-stream", "binary/octet-stream"].contains(mediaType)
    }
}
