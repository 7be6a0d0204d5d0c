/// How long to wait before retry attempt n. Values, not objects: a policy is a few numbers and a
/// strategy, and `delay` is a pure function of the attempt, the previous delay and a random source.
public struct BackoffPolicy: Sendable, Hashable, Codable {
    /// How the nominal exponential delay is turned into the actual wait.
    public enum Strategy: Sendable, Hashable, Codable {
        /// random(0, min(cap, base * multiplier^(n-1))). AWS's recommended default.
        case fullJitter
        /// half of the nominal delay plus random(0, half).
        case equalJitter
        /// min(cap, random(base, previous * 3)): spreads clients, keeps growth (AWS blog).
        case decorrelatedJitter
        /// nominal * (1 + random(-fraction, +fraction)), capped: gRPC's connection backoff and
        /// the `critical`, `network` and `quick` presets.
        case proportionalJitter(fraction: Double)
        /// always `base`.
        case constant
        /// base * n: 2 s, 4 s, 6 s for artwork.
        case linear
    }

    /// Attempts including the first one; 1 means "never retry".
    public var maxAttempts: Int
    /// First retry's nominal delay, seconds.
    public var base: Double
    public var multiplier: Double
    /// No wait is ever longer, seconds.
    public var cap: Double
    public var strategy: Strategy

    public init(maxAttempts: Int, base: Double, multiplier: Double = 2, cap: Double, strategy: Strategy = .fullJitter) {
        self.maxAttempts = max(1, maxAttempts)
        self.base = max(0, base)
        self.multiplier = max(1, multiplier)
        self.cap = max(self.base, cap)
        self.strategy = strategy
    }

    /// The delay before retry number `retry` (1 = the first retry, after the first failure) without
    /// jitter: min(cap, base * multiplier^(retry-1)), or base * retry for `.linear`.
    public func nominalDelay(forRetry retry: Int) -> Double {
        let n = max(1, retry)
        switch strategy {
        case .constant: return base
        case .linear: return min(cap, base * Double(n))
        default:
            var d = base
            for _ in 1..<n {
                d *= multiplier
                if d >= cap { return cap }
            }
            return min(cap, d)
        }
    }

    /// The actual wait before retry number `retry`. `previous` is the last actual delay (used by
    /// decorrelated jitter; nil on the first retry).
    public func delay<R: RandomNumberGenerator>(forRetry retry: Int, previous: Double? = nil, using random: inout R) -> Double {
        let nominal = nominalDelay(forRetry: retry)
        switch strategy {
        case .fullJitter:
            return nominal > 0 ? Double.random(in: 0...nominal, using: &random) : 0
        case .equalJitter:
            let half = nominal / 2
            return half + (half > 0 ? Double.random(in: 0...half, using: &random) : 0)
        case .decorrelatedJitter:
            let upper = max(base, (previous ?? base) * 3)
            let d = upper > base ? Double.random(in: base...upper, using: &random) : base
            return min(cap, d)
        case .proportionalJitter(let fraction):
            let f = min(1, max(0, fraction))
            let factor = f > 0 ? 1 + Double.random(in: -f...f, using: &random) : 1
            return min(cap * (1 + f), max(0, nominal * factor))
        case .constant, .linear:
            return nominal
        }
    }

    /// How many attempts fit in `window` seconds if every wait were nominal: the reconnect
    /// supervisor shows "attempt 2 of N" with this N and gives up after the window.
    public func attempts(within window: Double) -> Int {
        var total = 0.0
        var attempts = 1
        while attempts < 1000 {
            let next = nominalDelay(forRetry: attempts)
            if total + next > window { break }
            total += next
            attempts += 1
        }
        return attempts
    }
}

extension BackoffPolicy {
    /// User-initiated work that must succeed: 5 attempts from 0.5 s.
    public static let critical = BackoffPolicy(maxAttempts: 5, base: 0.5, multiplier: 2, cap: 60, strategy: .proportionalJitter(fraction: 0.15))
    /// Ordinary network requests: 3 attempts from 1 s.
    public static let network = BackoffPolicy(maxAttempts: 3, base: 1, multiplier: 2, cap: 60, strategy: .proportionalJitter(fraction: 0.15))
    /// Background, non-critical requests: 2 attempts from 0.5 s.
    public static let quick = BackoffPolicy(maxAttempts: 2, base: 0.5, multiplier: 2, cap: 60, strategy: .proportionalJitter(fraction: 0.15))
    /// A single try: for work whose retries someone else schedules and shows (a stream's
    /// playlist, fetched inside a reconnect attempt).
    public static let once = BackoffPolicy(maxAttempts: 1, base: 0, multiplier: 1, cap: 0, strategy: .constant)
    /// Artwork: a first try and retries after 2 s, 4 s and 6 s.
    public static let artwork = BackoffPolicy(maxAttempts: 4, base: 2, multiplier: 1, cap: 6, strategy: .linear)
    /// Stream reconnects: 1 s, x1.6, +-20 %, cap 30 s (gRPC connection backoff). `maxAttempts`
    /// is what fits in `ResilienceDefaults.reconnectGiveUpAfter`.
    public static let reconnect: BackoffPolicy = {
        var p = BackoffPolicy(maxAttempts: 1, base: 1, multiplier: 1.6, cap: 30, strategy: .proportionalJitter(fraction: 0.2))
        p.maxAttempts = p.attempts(within: ResilienceDefaults.reconnectGiveUpAfter)
        return p
    }()

    /// Reconnecting a dropped live stream while its buffer still plays: quick (0.25 s, 0.4 s,
    /// then every second or so, +-20 %), since nobody hears these attempts and a server restart
    /// is over in a second or two; at most 12 of them, about as long as a large buffer lasts.
    /// When the buffer runs dry first, the visible reconnect takes over with `reconnect`.
    public static let backgroundReconnect = BackoffPolicy(
        maxAttempts: 12, base: 0.25, multiplier: 1.6, cap: 1, strategy: .proportionalJitter(fraction: 0.2))
}

/// The resilience defaults, each a named constant in one place.
public enum ResilienceDefaults {
    /// Seconds of failed reconnect attempts after which a stream gives up (2 minutes).
    public static let reconnectGiveUpAfter: Double = 120
    /// The TCP connect timeout of the shared HTTP client and whole-document fetches, seconds.
    public static let connectTimeout: Double = 8
    /// Seconds before a slow connect is shown as "still connecting" (told early, failed late).
    public static let stillConnectingAfter: Double = 3
    /// A network source dry this long (its reader waiting, no bytes coming) -> the state machine
    /// gives the connection up: an episode asks again at the same byte, a live stream reconnects.
    public static let stallTimeout: Double = 8
    /// Buffering longer than this -> reconnect.
    public static let bufferingTimeout: Double = 30
    /// A live HLS playlist loaded this many times in a row without a new segment -> the state
    /// machine treats the stream as stalled. The first such load comes a target duration after the
    /// last new segment, the next four half a target duration apart (RFC 8216 6.3.4): five are
    /// three target durations without a new segment.
    public static let unchangedPlaylistLoads = 5
    /// Rendering as fast as possible: a wait for data this long is shown as buffering. Long enough
    /// that a decoder catching up does not flicker the state, short enough that a stalled server
    /// is on screen long before the stall timeout acts on it.
    public static let renderWaitShownAfter: Double = 2
    /// Circuit breaker: consecutive failures that open it, and seconds before a half-open probe.
    public static let breakerFailureThreshold = 5
    public static let breakerOpenDuration: Double = 30
    /// Seconds a half-open probe may take before it counts as failed.
    public static let breakerProbeTimeout: Double = 10
    /// Most requests one batch (an OPML import, a refresh of every podcast) has in flight to one
    /// host at a time. Two keeps a batch quick while bounding what a dead host sees: when its
    /// breaker opens after `breakerFailureThreshold` failures, at most one more attempt can
    /// already be under way (5 + 1 connections, however many feeds the host serves).
    public static let batchRequestsPerHost = 2
    /// Most requests one batch has in flight in total.
    public static let batchRequestsInFlight = 4
}
