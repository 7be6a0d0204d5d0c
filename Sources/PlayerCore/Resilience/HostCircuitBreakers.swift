import Foundation
import Synchronization

/// The circuit breakers of every host the process talks to, keyed by host, for every network path
/// (feeds, OPML imports, artwork, status APIs, the first connect of streams and episodes).
///
/// Why one registry per process and not one breaker per call site: a dead host is dead for every
/// caller. Twenty feeds on one host must not each find that out with their own three attempts;
/// after `failureThreshold` consecutive failures on a host (counted across all callers) every
/// caller fails fast with `circuitOpen`, naming the host and when it is tried again, until the
/// cool-down ends and one probe may go through. Other hosts are not affected.
///
/// The key is the host, lower-cased, with the port when it is not the scheme's default
/// (`radio.example`, `127.0.0.1:8000`): two servers on one machine are two hosts to a listener.
/// Keys never carry a path, query or credentials, so they may appear in error texts.
///
/// All timing comes from the injected clock and is evaluated when asked (see `CircuitBreaker`), so
/// tests drive the cool-down with a `TestClock` and never sleep.
///
/// Using it around one connection:
/// ```swift
/// let permit = try breakers.permit(for: url)       // throws circuitOpen while the host is open
/// do {
///     let answer = try await connect(url)
///     breakers.record(permit, .success)            // the host answered
///     return answer
/// } catch {
///     breakers.record(permit, error: error)        // a transient failure counts against the host
///     throw error
/// }
/// ```
/// or hand a `Connection` (from `connection(to:)`) to code that reports from callbacks.
///
/// From a reconnect policy: stream and episode sources already ask the breaker when they connect,
/// so a refused reconnect fails its load with `circuitOpen`, which is retryable and carries
/// `retryAfter = .seconds(until the probe)`. A policy that waits max(backoff, Retry-After)
/// therefore reconnects exactly when the probe may go through. Before scheduling a retry, take a
/// token from the session's budget (the player's state machine keeps a `TokenBucket` for this);
/// when it says no, give up with the error that caused the retry:
/// ```swift
/// guard cause.isRetryable, budget.tryAcquire() else { return fail(cause) }
/// var delay = policy.delay(forRetry: attempt, previous: last, using: &random)
/// if case .seconds(let asked)? = cause.retryAfter { delay = max(delay, asked) }   // circuitOpen too
/// // or, to ask without connecting: breakers.secondsUntilPermitted(host: HostCircuitBreakers.host(of: url)!)
/// ```
public final class HostCircuitBreakers: Sendable {
    /// The process's registry, on the real clock, with the defaults of `ResilienceDefaults`.
    public static let shared = HostCircuitBreakers()

    /// The keyed breaker underneath; `withRetry(breaker:breakerKey:)` takes it with a `host(of:)` key.
    public let breaker: CircuitBreaker
    /// Trips by class, counted by the breaker's `onTrip` (whoever records: these methods or
    /// `withRetry` with `breaker` directly).
    private let trips: TripTally

    /// Permission to make one call to `host`; hand it back to `record`.
    public struct Permit: Sendable, Hashable {
        public let host: String
        let inner: CircuitBreaker.Permit

        /// True for the single call let through to test a host after its cool-down.
        public var isProbe: Bool { inner.isProbe }
    }

    public init(
        failureThreshold: Int = ResilienceDefaults.breakerFailureThreshold,
        openDuration: Double = ResilienceDefaults.breakerOpenDuration,
        probeTimeout: Double = ResilienceDefaults.breakerProbeTimeout,
        clock: any Clock<Duration> = SystemClock()
    ) {
        let trips = TripTally()
        self.trips = trips
        breaker = CircuitBreaker(
            failureThreshold: failureThreshold, openDuration: openDuration, probeTimeout: probeTimeout, clock: clock,
            onTrip: { trips.count(HostClass(breakerKey: $0)) })
    }

    /// The breaker key of `url`: its host, lower-cased, plus `:port` when the port is not the
    /// scheme's default. Nil for a URL without a host (a file), which no breaker guards.
    public static func host(of url: URL) -> String? {
        guard var host = url.host?.lowercased(), !host.isEmpty else { return nil }
        if host.hasSuffix("."), host.count > 1 { host.removeLast() }
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }  // an IPv6 literal
        let defaultPort: Int? =
            switch url.scheme?.lowercased() {
            case "http": 80
            case "https": 443
            default: nil
            }
        if let port = url.port, port != defaultPort { host += ":\(port)" }
        return host
    }

    /// Asks to call `host`. Throws `circuitOpen` (with the host and the seconds until it is tried
    /// again) while its breaker is open or its one probe is in flight.
    public func permit(host: String) throws(PlaybackError) -> Permit {
        guard let inner = breaker.acquire(host) else {
            throw PlaybackError.circuitOpen(host: host, retryIn: breaker.secondsUntilPermitted(host))
        }
        return Permit(host: host, inner: inner)
    }

    /// Asks to call `url`'s host; nil when the URL has no host (nothing to guard).
    public func permit(for url: URL) throws(PlaybackError) -> Permit? {
        guard let host = Self.host(of: url) else { return nil }
        return try permit(host: host)
    }

    /// Reports how a permitted call ended.
    public func record(_ permit: Permit, _ outcome: CircuitBreaker.Outcome) {
        breaker.record(permit.inner, outcome)
    }

    /// Reports a permitted call that failed with `error`: transient failures count against the
    /// host, answers (a 404) count for it, cancellations count for nothing (`CircuitBreaker.Outcome.init`).
    public func record(_ permit: Permit, error: any Error) {
        breaker.record(permit.inner, CircuitBreaker.Outcome(PlaybackError.from(error)))
    }

    /// How the breakers of one class of hosts stand, for metrics: never a host's name.
    public struct ClassCensus: Sendable, Hashable {
        /// Hosts refused now.
        public var open = 0
        /// Hosts whose cool-down ended, waiting for (or running) their one probe.
        public var halfOpen = 0
        /// Times a breaker of this class opened since the process began.
        public var trips = 0

        public init(open: Int = 0, halfOpen: Int = 0, trips: Int = 0) {
            self.open = open
            self.halfOpen = halfOpen
            self.trips = trips
        }
    }

    /// Every class of host (`HostClass`) with its breakers' standing; every class is present.
    public func census() -> [HostClass: ClassCensus] {
        var census = Dictionary(uniqueKeysWithValues: HostClass.allCases.map { ($0, ClassCensus()) })
        for (host, state) in breaker.unhealthyStates() {
            let hostClass = HostClass(breakerKey: host)
            switch state {
            case .open: census[hostClass]?.open += 1
            case .halfOpen: census[hostClass]?.halfOpen += 1
            case .closed: break
            }
        }
        for (hostClass, count) in trips.counts { census[hostClass]?.trips = count }
        return census
    }

    /// The state of `host`'s breaker now.
    public func state(of host: String) -> CircuitBreaker.State { breaker.state(for: host) }

    /// Seconds until `host` may be called again (0 when it may now).
    public func secondsUntilPermitted(host: String) -> Double { breaker.secondsUntilPermitted(host) }

    /// A permit for one connection to `url` that is reported at most once, from whichever
    /// callback comes first (response head, transport error, close). Nil for a URL without a host.
    public func connection(to url: URL) throws(PlaybackError) -> Connection? {
        guard let permit = try permit(for: url) else { return nil }
        return Connection(breakers: self, permit: permit)
    }

    /// One connection attempt's permit, reported once: the first of `connected()`, `failed(_:)`
    /// or `abandoned()` counts, later calls do nothing. For sources whose outcome arrives on
    /// event-loop callbacks rather than as a returned value.
    public final class Connection: Sendable {
        public let host: String
        private let breakers: HostCircuitBreakers
        private let pending: Mutex<HostCircuitBreakers.Permit?>

        init(breakers: HostCircuitBreakers, permit: HostCircuitBreakers.Permit) {
            self.breakers = breakers
            self.host = permit.host
            self.pending = Mutex(permit)
        }

        /// The server answered (a response head arrived, whatever its status).
        public func connected() { finish(.success) }

        /// The connection failed before an answer.
        public func failed(_ error: any Error) { finish(CircuitBreaker.Outcome(PlaybackError.from(error))) }

        /// Given up before the server could answer (closed, cancelled): counts for nothing.
        public func abandoned() { finish(.abandoned) }

        private func finish(_ outcome: CircuitBreaker.Outcome) {
            let permit = pending.withLock { pending -> HostCircuitBreakers.Permit? in
                defer { pending = nil }
                return pending
            }
            if let permit { breakers.record(permit, outcome) }
        }
    }
}

extension CircuitBreaker.Outcome {
    /// What a failed call says about its host's health.
    /// - Transient transport and server failures (refused, timed out, dropped, unknown name, TLS
    ///   broken, 408/429/5xx, stalled) are `.failure`.
    /// - Cancellation, being offline (the listener's network, not the host) and a refusal by a
    ///   breaker (no call was made) are `.abandoned`.
    /// - Anything else is an answer from the host (404, 401, a web page instead of a feed): `.success`.
    public init(_ error: PlaybackError) {
        switch error.code {
        case .cancelled, .offline, .circuitOpen, .audioOutputLost, .audioOutputUnavailable, .invalidTransition:
            self = .abandoned
        case .tlsFailure:
            self = .failure
        default:
            self = error.isRetryable ? .failure : .success
        }
    }
}

/// Trips of breakers by class of host, shared between the registry and its breaker's callback.
private final class TripTally: Sendable {
    private let tally = Mutex<[HostClass: Int]>([:])

    func count(_ hostClass: HostClass) { tally.withLock { $0[hostClass, default: 0] += 1 } }

    var counts: [HostClass: Int] { tally.withLock { $0 } }
}
