import AsyncHTTPClient
import PlayerCore

/// The one HTTP client of the whole program: streams, playlists,
/// status APIs and artwork all share its connection pool and its limits.
///
/// At most `StreamingLimits.maxRedirects` redirects and no cycles; a failed connection fails the
/// request at once (no silent re-dialling until a timeout: retries belong to the callers' policies);
/// no automatic decompression; no client-side read timeout (each caller enforces its own, because
/// a live stream and a JSON request need different ones). Lives for the whole process.
package enum SharedHTTPClient {
    package static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: StreamingLimits.maxRedirects, allowCycles: false),
            timeout: .init(connect: .milliseconds(Int64(ResilienceDefaults.connectTimeout * 1000)), read: nil),
            decompression: .disabled)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// The same client without redirects: a 3xx comes back as an answer, for callers that check
    /// every hop's target themselves (artwork refuses private addresses, wherever a redirect points).
    package static let withoutRedirects: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .milliseconds(Int64(ResilienceDefaults.connectTimeout * 1000)), read: nil),
            decompression: .disabled)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// The User-Agent sent with every request.
    package static let userAgent = "Tonearm/\(TonearmVersion.current) (Linux)"
}
