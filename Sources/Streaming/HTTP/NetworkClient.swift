import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PlayerCore

/// A complete, bounded HTTP answer for small documents (playlists, status JSON, images, feeds): a 2xx,
/// or a 304 when the request was conditional (`If-None-Match` / `If-Modified-Since`).
package struct NetworkResponse: Sendable {
    /// The URL asked for (after cache busting); redirects are followed by the shared client.
    /// When they are followed here (`checkTarget` or `tracksRedirects`), the URL that answered.
    package let url: URL
    package let status: Int
    /// The first value of each header, by lower-cased name.
    package let headers: [String: String]
    package let body: Data
    /// The URL that answered, when every redirect on the way to it was permanent (301 or 308):
    /// where the resource now lives, so a caller that keeps the address (a feed subscription) can
    /// move to it. Nil without redirects, with any temporary one (302, 303, 307: the old address
    /// stays right), or when redirects were followed by the client, which does not tell.
    package let permanentURL: URL?

    package init(url: URL, status: Int, headers: [String: String], body: Data, permanentURL: URL? = nil) {
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.permanentURL = permanentURL
    }

    /// `Content-Type` without parameters, lower-cased (`audio/x-scpls`), or nil.
    package var mediaType: String? {
        headers["content-type"]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }
}

/// NetworkClient: every service fetches small documents through this one type, on the
/// program's one `SharedHTTPClient`, with the same typed errors, timeouts, size cap and retry presets.
///
/// Why a type of our own on top of AsyncHTTPClient: the client gives transport; what each service
/// needs on top (retry with Retry-After, cache busting, a size cap, typed errors, an injectable clock
/// so tests never sleep) is the same everywhere and belongs in one place.
public struct NetworkClient: Sendable {
    /// How one request behaves.
    package struct Options: Sendable {
        /// Seconds for one attempt, from sending to the last body byte.
        package var timeout: Double
        /// Largest body accepted; a larger one fails with `documentTooLarge` (nothing is retried).
        package var maxBytes: Int
        /// Append `nocache=<milliseconds since 1970>` so caches in between cannot answer.
        package var cacheBusting: Bool
        /// The retry preset: `.network` by default, `.artwork`, `.quick`, `.critical`.
        package var policy: BackoffPolicy
        /// The `Accept` header.
        package var accept: String
        /// Extra request headers, such as a feed's `If-None-Match` and `If-Modified-Since` validators.
        /// When either of those is present, a 304 answer is returned (empty body), not thrown.
        package var headers: [String: String]
        /// Checked before every request: the first and each redirect's target. When set, redirects
        /// are followed here, one checked hop at a time (at most `StreamingLimits.maxRedirects`),
        /// instead of by the client, so a redirect cannot lead where the check would refuse.
        package var checkTarget: (@Sendable (URL) async throws(PlaybackError) -> Void)?
        /// Follow redirects here, one hop at a time, so the response can tell a permanent move
        /// (`NetworkResponse.permanentURL`); the client's own redirect handling cannot.
        package var tracksRedirects: Bool
        /// A body to send with POST instead of a GET (a sync server's uploads).
        package var post: PostBody?
        /// Log the host only, not the path: a sync server's paths carry the user's name.
        package var hidesPathInLog = false
        /// What the body counts as in `TransferCounters` (an HLS segment is a stream's audio).
        package var countsAs: TransferCounters.Kind = .request
        /// Told of each retry of this request, besides the client's own `onRetry`.
        package var onRetry: (@Sendable (RetryAttemptReport) -> Void)?

        package init(
            timeout: Double = ResilienceDefaults.connectTimeout, maxBytes: Int = 1 << 20, cacheBusting: Bool = false,
            policy: BackoffPolicy = .network, accept: String = "*/*", headers: [String: String] = [:],
            checkTarget: (@Sendable (URL) async throws(PlaybackError) -> Void)? = nil, tracksRedirects: Bool = false
        ) {
            self.headers = headers
            self.checkTarget = checkTarget
            self.tracksRedirects = tracksRedirects
            self.timeout = timeout
            self.maxBytes = maxBytes
            self.cacheBusting = cacheBusting
            self.policy = policy
            self.accept = accept
        }
    }

    /// What a POST sends.
    package struct PostBody: Sendable {
        package var contentType: String
        package var data: Data

        package init(contentType: String = "application/json", data: Data) {
            self.contentType = contentType
            self.data = data
        }
    }

    /// The program's client, on the shared HTTP client with the real clock.
    public static let shared = NetworkClient()

    /// The HTTP clients are made on first use: a client starts an event loop thread, which a
    /// command that plays only local files never needs.
    private let makeHTTP: @Sendable () -> HTTPClient
    private let makeHTTPWithoutRedirects: @Sendable () -> HTTPClient
    var http: HTTPClient { makeHTTP() }
    private var httpWithoutRedirects: HTTPClient { makeHTTPWithoutRedirects() }
    let clock: any Clock<Duration>
    let timeoutClock: any Clock<Duration>
    let seed: UInt64?
    let now: @Sendable () -> Date
    let statistics: RetryStatistics?
    let onRetry: @Sendable (RetryAttemptReport) -> Void
    let logger: Logger
    /// The per-host breakers every request asks first (the process's shared registry by default).
    package var breakers: HostCircuitBreakers?
    /// The retries one playback session or command run may spend in total; nil: unlimited.
    /// Give each session or command its own (`var client = NetworkClient.shared; client.retryBudget = RetryBudget()`).
    package var retryBudget: RetryBudget?
    /// Where received bytes and finished downloads are counted (the process's counters by default).
    package var transfers: TransferCounters? = .shared

    /// - Parameters:
    ///   - clock: waits between retries; tests pass a test clock.
    ///   - timeoutClock: a request's time limits (the whole exchange, a download's silence). It
    ///     measures a server, which keeps real time, so it is a real clock even where a test skips
    ///     the waits between retries (`ImmediateClock` as `clock`); a test of a time limit passes a
    ///     test clock here and moves it on.
    ///   - seed: a fixed jitter seed for tests; nil seeds each request from the system.
    ///   - now: the wall clock for cache busting and HTTP-date Retry-After.
    ///   - logger: receives each attempt and retry (URLs redacted); silent by default.
    ///   - http, httpWithoutRedirects: read on every request, so pass a client made once
    ///     (`let client = HTTPClient(...)`), never an expression that makes one.
    package init(
        http: @autoclosure @escaping @Sendable () -> HTTPClient = SharedHTTPClient.client,
        httpWithoutRedirects: @autoclosure @escaping @Sendable () -> HTTPClient = SharedHTTPClient.withoutRedirects,
        clock: any Clock<Duration> = SystemClock(),
        timeoutClock: any Clock<Duration> = SystemClock(),
        seed: UInt64? = nil,
        now: @escaping @Sendable () -> Date = Date.init,
        statistics: RetryStatistics? = nil,
        breakers: HostCircuitBreakers? = .shared,
        retryBudget: RetryBudget? = nil,
        onRetry: @escaping @Sendable (RetryAttemptReport) -> Void = { _ in },
        logger: Logger = Logger(label: "tonearm.network", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.logger = logger
        self.breakers = breakers
        self.retryBudget = retryBudget
        self.makeHTTP = http
        self.makeHTTPWithoutRedirects = httpWithoutRedirects
        self.clock = clock
        self.timeoutClock = timeoutClock
        self.seed = seed
        self.now = now
        self.statistics = statistics
        self.onRetry = onRetry
    }

    /// GETs `url` (or POSTs `options.post` to it) and returns the whole body, retrying transient failures with `options.policy`.
    /// Each try asks `url`'s host breaker first (`circuitOpen` while it is open) and each retry
    /// takes a token from `retryBudget` (when spent, the last error ends the run).
    ///
    /// - Parameter operation: a stable name for retry statistics (never a URL or a title).
    /// - Throws: `streamUnavailable` for a URL that is not http(s); the mapped status for non-2xx
    ///   (401/403 authorization, 404/410 not found, 408/429/5xx retried honouring Retry-After);
    ///   `documentTooLarge` for a body over `maxBytes`; transport errors as `HTTPErrorMapping` maps them.
    package func data(from url: URL, operation: String, options: Options = Options()) async throws(PlaybackError) -> NetworkResponse {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw PlaybackError(.streamUnavailable, underlying: "not an http(s) URL")
        }
        let target = options.cacheBusting ? GETRequest.cacheBusted(url, at: now()) : url
        let exchange = Exchange(
            http: options.followsRedirectsHere ? httpWithoutRedirects : self.http, options: options, clock: timeoutClock, now: now)
        let told: @Sendable (RetryAttemptReport) -> Void = { [onRetry] report in
            onRetry(report)
            options.onRetry?(report)
        }
        let response = try await withRetry(
            operation, policy: options.policy, clock: clock, random: seed.map(SeededRandom.init(seed:)) ?? .systemSeeded(),
            budget: retryBudget, breaker: breakers?.breaker, breakerKey: HostCircuitBreakers.host(of: url),
            statistics: statistics, now: now, onRetry: Self.loggingRetries(told, logger: logger)
        ) { [logger] in
            try await Self.logged(
                target, method: options.post == nil ? "GET" : "POST", hidingPath: options.hidesPathInLog, operation: operation, logger: logger
            ) { try await exchange.fetchOnce(target) }
        }
        transfers?.received(response.body.count, as: options.countsAs)
        return response
    }

    /// GETs `url` and decodes its JSON body as `T`. A body that does not decode is `malformedData`
    /// (final: the same bytes would not decode next time).
    package func fetch<T: Decodable & Sendable>(
        _ type: T.Type, from url: URL, operation: String, options: Options = Options(), decoder: JSONDecoder = JSONDecoder()
    ) async throws(PlaybackError) -> T {
        var options = options
        if options.accept == "*/*" { options.accept = "application/json" }
        let response = try await data(from: url, operation: operation, options: options)
        do {
            return try decoder.decode(T.self, from: response.body)
        } catch {
            throw PlaybackError(.malformedData, underlying: "\(T.self): \(error)")
        }
    }

    /// `url` with `nocache=<milliseconds since 1970>` appended (an existing `nocache` is replaced).
    package static func cacheBusted(_ url: URL, at date: Date) -> URL {
        GETRequest.cacheBusted(url, at: date)
    }
}

extension NetworkClient.Options {
    /// True when the request carries a cache validator, so a 304 is an answer rather than an error.
    var isConditional: Bool {
        headers.keys.contains { ["if-none-match", "if-modified-since"].contains($0.lowercased()) }
    }

    /// Redirects are followed by `NetworkClient` rather than by the HTTP client.
    var followsRedirectsHere: Bool { checkTarget != nil || tracksRedirects }
}
