import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PlayerCore

/// A complete, bounded HTTP answer for small documents (playlists, status JSON, images, feeds): a 2xx,
/// or a 304 when the request was conditional (`If-None-Match` / `If-Modified-Since`).
public struct NetworkResponse: Sendable {
    /// The URL asked for (after cache busting); redirects are followed by the shared client.
    /// When they are followed here (`checkTarget` or `tracksRedirects`), the URL that answered.
    public let url: URL
    public let status: Int
    /// The first value of each header, by lower-cased name.
    public let headers: [String: String]
    public let body: Data
    /// The URL that answered, when every redirect on the way to it was permanent (301 or 308):
    /// where the resource now lives, so a caller that keeps the address (a feed subscription) can
    /// move to it. Nil without redirects, with any temporary one (302, 303, 307: the old address
    /// stays right), or when redirects were followed by the client, which does not tell.
    public let permanentURL: URL?

    public init(url: URL, status: Int, headers: [String: String], body: Data, permanentURL: URL? = nil) {
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.permanentURL = permanentURL
    }

    /// `Content-Type` without parameters, lower-cased (`audio/x-scpls`), or nil.
    public var mediaType: String? {
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
    public struct Options: Sendable {
        /// Seconds for one attempt, from sending to the last body byte.
        public var timeout: Double
        /// Largest body accepted; a larger one fails with `documentTooLarge` (nothing is retried).
        public var maxBytes: Int
        /// Append `nocache=<milliseconds since 1970>` so caches in between cannot answer.
        public var cacheBusting: Bool
        /// The retry preset: `.network` by default, `.artwork`, `.quick`, `.critical`.
        public var policy: BackoffPolicy
        /// The `Accept` header.
        public var accept: String
        /// Extra request headers, such as a feed's `If-None-Match` and `If-Modified-Since` validators.
        /// When either of those is present, a 304 answer is returned (empty body), not thrown.
        public var headers: [String: String]
        /// Checked before every request: the first and each redirect's target. When set, redirects
        /// are followed here, one checked hop at a time (at most `StreamingLimits.maxRedirects`),
        /// instead of by the client, so a redirect cannot lead where the check would refuse.
        public var checkTarget: (@Sendable (URL) async throws(PlaybackError) -> Void)?
        /// Follow redirects here, one hop at a time, so the response can tell a permanent move
        /// (`NetworkResponse.permanentURL`); the client's own redirect handling cannot.
        public var tracksRedirects: Bool

        public init(
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

    /// The program's client, on the shared HTTP client with the real clock.
    public static let shared = NetworkClient()

    let http: HTTPClient
    private let httpWithoutRedirects: HTTPClient
    let clock: any Clock<Duration>
    let seed: UInt64?
    let now: @Sendable () -> Date
    let statistics: RetryStatistics?
    let onRetry: @Sendable (RetryAttemptReport) -> Void
    let logger: Logger
    /// The per-host breakers every request asks first (the process's shared registry by default).
    public var breakers: HostCircuitBreakers?
    /// The retries one playback session or command run may spend in total; nil: unlimited.
    /// Give each session or command its own (`var client = NetworkClient.shared; client.retryBudget = RetryBudget()`).
    public var retryBudget: RetryBudget?

    /// - Parameters:
    ///   - clock: waits between retries; tests pass a test clock.
    ///   - seed: a fixed jitter seed for tests; nil seeds each request from the system.
    ///   - now: the wall clock for cache busting and HTTP-date Retry-After.
    ///   - logger: receives each attempt and retry (URLs redacted); silent by default.
    public init(
        http: HTTPClient = SharedHTTPClient.client,
        httpWithoutRedirects: HTTPClient = SharedHTTPClient.withoutRedirects,
        clock: any Clock<Duration> = ContinuousClock(),
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
        self.http = http
        self.httpWithoutRedirects = httpWithoutRedirects
        self.clock = clock
        self.seed = seed
        self.now = now
        self.statistics = statistics
        self.onRetry = onRetry
    }

    /// GETs `url` and returns the whole body, retrying transient failures with `options.policy`.
    /// Each try asks `url`'s host breaker first (`circuitOpen` while it is open) and each retry
    /// takes a token from `retryBudget` (when spent, the last error ends the run).
    ///
    /// - Parameter operation: a stable name for retry statistics (never a URL or a title).
    /// - Throws: `streamUnavailable` for a URL that is not http(s); the mapped status for non-2xx
    ///   (401/403 authorization, 404/410 not found, 408/429/5xx retried honouring Retry-After);
    ///   `documentTooLarge` for a body over `maxBytes`; transport errors as `HTTPErrorMapping` maps them.
    public func data(from url: URL, operation: String, options: Options = Options()) async throws(PlaybackError) -> NetworkResponse {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw PlaybackError(.streamUnavailable, underlying: "not an http(s) URL")
        }
        let target = options.cacheBusting ? Self.cacheBusted(url, at: now()) : url
        let http = options.followsRedirectsHere ? httpWithoutRedirects : self.http
        let now = self.now
        return try await withRetry(
            operation, policy: options.policy, clock: clock, random: seed.map(SeededRandom.init(seed:)) ?? .systemSeeded(),
            budget: retryBudget, breaker: breakers?.breaker, breakerKey: HostCircuitBreakers.host(of: url),
            statistics: statistics, now: now, onRetry: Self.loggingRetries(onRetry, logger: logger)
        ) { [logger] in
            try await Self.logged(target, operation: operation, logger: logger) { try await Self.fetchOnce(target, http: http, options: options, now: now) }
        }
    }

    /// GETs `url` and decodes its JSON body as `T`. A body that does not decode is `malformedData`
    /// (final: the same bytes would not decode next time).
    public func fetch<T: Decodable & Sendable>(
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
    public static func cacheBusted(_ url: URL, at date: Date) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var items = (components.queryItems ?? []).filter { $0.name != "nocache" }
        items.append(URLQueryItem(name: "nocache", value: String(Int64((date.timeIntervalSince1970 * 1000).rounded()))))
        components.queryItems = items
        return components.url ?? url
    }

    /// One attempt: with `checkTarget` or `tracksRedirects`, redirects are followed here (each
    /// hop checked), noting whether all of them were permanent.
    private static func fetchOnce(_ url: URL, http: HTTPClient, options: Options, now: @escaping @Sendable () -> Date) async throws -> NetworkResponse {
        guard options.followsRedirectsHere else { return try await request(url, http: http, options: options, now: now) }
        var target = url
        var allPermanent = true
        for hop in 0...StreamingLimits.maxRedirects {
            try await options.checkTarget?(target)
            let response = try await request(target, http: http, options: options, now: now)
            guard redirectStatuses.contains(response.status) else {
                guard hop > 0, allPermanent else { return response }
                return NetworkResponse(
                    url: response.url, status: response.status, headers: response.headers, body: response.body, permanentURL: target)
            }
            allPermanent = allPermanent && permanentRedirectStatuses.contains(response.status)
            guard let location = response.headers["location"], let next = URL(string: location, relativeTo: target)?.absoluteURL,
                ["http", "https"].contains(next.scheme?.lowercased() ?? "")
            else {
                throw PlaybackError(.streamUnavailable, httpStatus: response.status, underlying: "a redirect without a usable Location")
            }
            target = next
        }
        throw PlaybackError(.streamUnavailable, underlying: "more than \(StreamingLimits.maxRedirects) redirects")
    }

    /// The statuses that send a GET elsewhere (the ones the client itself follows); 304 is an answer.
    private static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
    /// Moved for good (RFC 9110 15.4.2, RFC 9110 15.4.9).
    private static let permanentRedirectStatuses: Set<Int> = [301, 308]

    private static func request(_ url: URL, http: HTTPClient, options: Options, now: @escaping @Sendable () -> Date) async throws -> NetworkResponse {
        // AsyncHTTPClient's deadline ends at the response head: a server that sends its headers and
        // then holds the body would keep this call waiting for ever. The whole exchange races the
        // timeout; the loser is cancelled (AsyncHTTPClient cancels the request with its task).
        try await withThrowingTaskGroup(of: NetworkResponse?.self) { group in
            group.addTask { try await exchange(url, http: http, options: options, now: now) }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int64(options.timeout * 1000)))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw PlaybackError(.connectionTimeout, underlying: "no complete answer within \(options.timeout) s")
            }
            return response
        }
    }

    private static func exchange(_ url: URL, http: HTTPClient, options: Options, now: @Sendable () -> Date) async throws -> NetworkResponse {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: SharedHTTPClient.userAgent)
        request.headers.add(name: "Accept", value: options.accept)
        for (name, value) in options.headers.sorted(by: { $0.key < $1.key }) { request.headers.add(name: name, value: value) }
        let deadline = NIODeadline.now() + .milliseconds(Int64(options.timeout * 1000))
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, deadline: deadline)
        } catch {
            throw HTTPErrorMapping.map(error)
        }
        let status = Int(response.status.code)
        if options.followsRedirectsHere, redirectStatuses.contains(status) {
            // Followed by `fetchOnce`, after checking where it leads.
            return NetworkResponse(url: url, status: status, headers: headerMap(response.headers), body: Data())
        }
        if status == 304, options.isConditional {
            return NetworkResponse(url: url, status: status, headers: headerMap(response.headers), body: Data())
        }
        guard (200...299).contains(status) else {
            let retryAfter = response.headers.first(name: "Retry-After").flatMap { RetryAfter.parse($0) }
            throw PlaybackError.from(httpStatus: status, retryAfter: retryAfter.map { HTTPByteSource.relative($0, now: now()) })
                ?? PlaybackError(.httpClientError, httpStatus: status, underlying: "unexpected HTTP status \(status)")
        }
        let headers = headerMap(response.headers)
        if let length = headers["content-length"].flatMap(Int.init), length > options.maxBytes {
            throw PlaybackError(.documentTooLarge, underlying: "response of \(length) bytes is over the \(options.maxBytes)-byte cap")
        }
        var body = Data()
        do {
            for try await chunk in response.body {
                guard body.count + chunk.readableBytes <= options.maxBytes else {
                    throw PlaybackError(.documentTooLarge, underlying: "response is over the \(options.maxBytes)-byte cap")
                }
                body.append(contentsOf: chunk.readableBytesView)
            }
        } catch {
            throw HTTPErrorMapping.map(error)
        }
        return NetworkResponse(url: url, status: status, headers: headers, body: body)
    }

    /// The first value of each header, by lower-cased name.
    private static func headerMap(_ headers: HTTPHeaders) -> [String: String] {
        var map: [String: String] = [:]
        for header in headers where map[header.name.lowercased()] == nil { map[header.name.lowercased()] = header.value }
        return map
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
