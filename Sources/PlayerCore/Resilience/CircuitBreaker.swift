import Synchronization

/// A circuit breaker per key (usually a host): after a run of consecutive failures it refuses
/// calls for a while instead of hammering a server that is down, then lets ONE probe through.
///
/// Why: retries handle blips; a breaker handles outages. Without it every operation of every
/// session keeps paying connect timeouts against a dead host (Polly, resilience4j; the
/// defaults in `ResilienceDefaults`: open after 5 consecutive failures, half-open probe after 30 s).
///
/// States: `closed` (calls pass, failures counted) -> `open` (calls refused) -> after
/// `openDuration` `halfOpen` (exactly one probe passes; its success closes, its failure re-opens).
/// A probe that never reports back counts as failed once `probeTimeout` has passed, so the
/// breaker can never stick in half-open. All timing comes from the injected clock and is
/// evaluated lazily when the breaker is asked, so it needs no timers of its own.
public final class CircuitBreaker: Sendable {
    public enum State: String, Sendable, Hashable, Codable {
        case closed
        case open
        case halfOpen
    }

    /// Permission to make one call, returned by `acquire`; hand it back to `record`.
    /// Carries the probe's identity so a late answer from a timed-out probe is ignored.
    public struct Permit: Sendable, Hashable {
        public let key: String
        /// True for the single half-open probe.
        public let isProbe: Bool
        let probeID: UInt64
    }

    /// How a permitted call ended, from the host's health point of view.
    public enum Outcome: Sendable, Hashable {
        /// The host answered (also for answers such as 404 that are errors for the caller).
        case success
        /// A transient failure that says the host may be unhealthy.
        case failure
        /// The call ended without telling anything about the host (cancelled): frees the probe
        /// slot without counting for or against the host.
        case abandoned
    }

    public let failureThreshold: Int
    /// Seconds the breaker stays open before allowing a probe.
    public let openDuration: Double
    /// Seconds a half-open probe may take before it counts as failed.
    public let probeTimeout: Double

    private enum Phase {
        case closed(failures: Int)
        case open(since: Duration)
        /// `probe` is nil while the slot is free; `probeSince` is when the probe started.
        case halfOpen(probe: UInt64?, probeSince: Duration)
    }

    private struct Table {
        var phases: [String: Phase] = [:]
        var nextProbeID: UInt64 = 1
    }

    private let table = Mutex(Table())
    private let elapsed: @Sendable () -> Duration
    private let onTrip: (@Sendable (String) -> Void)?

    /// - Parameter onTrip: told (outside the lock) each time failures open the breaker of a key;
    ///   an open period that ends in a failed probe is a trip too.
    public init(
        failureThreshold: Int = ResilienceDefaults.breakerFailureThreshold,
        openDuration: Double = ResilienceDefaults.breakerOpenDuration,
        probeTimeout: Double = ResilienceDefaults.breakerProbeTimeout,
        clock: any Clock<Duration> = SystemClock(),
        onTrip: (@Sendable (_ key: String) -> Void)? = nil
    ) {
        self.onTrip = onTrip
        self.failureThreshold = max(1, failureThreshold)
        self.openDuration = max(0, openDuration)
        self.probeTimeout = max(0, probeTimeout)
        elapsed = monotonicElapsed(clock)
    }

    /// Asks to make a call for `key`. Nil means the circuit is open (or its one probe is in
    /// flight): fail fast without calling.
    public func acquire(_ key: String) -> Permit? {
        let now = elapsed()
        return table.withLock { table -> Permit? in
            switch current(table.phases[key], now: now) {
            case .closed(let failures):
                table.phases[key] = .closed(failures: failures)
                return Permit(key: key, isProbe: false, probeID: 0)
            case .open(let since):
                table.phases[key] = .open(since: since)
                return nil
            case .halfOpen(probe: nil, _):
                let id = table.nextProbeID
                table.nextProbeID += 1
                table.phases[key] = .halfOpen(probe: id, probeSince: now)
                return Permit(key: key, isProbe: true, probeID: id)
            case .halfOpen(let probe?, let probeSince):
                table.phases[key] = .halfOpen(probe: probe, probeSince: probeSince)
                return nil
            }
        }
    }

    /// Reports how a permitted call ended.
    public func record(_ permit: Permit, _ outcome: Outcome) {
        let now = elapsed()
        let tripped = table.withLock { table in
            let phase = current(table.phases[permit.key], now: now)
            var next = phase
            switch phase {
            case .closed(let failures) where !permit.isProbe:
                switch outcome {
                case .success: next = .closed(failures: 0)
                case .failure: next = failures + 1 >= failureThreshold ? .open(since: now) : .closed(failures: failures + 1)
                case .abandoned: break
                }
            case .halfOpen(let probe?, _) where permit.isProbe && probe == permit.probeID:
                switch outcome {
                case .success: next = .closed(failures: 0)
                case .failure: next = .open(since: now)
                case .abandoned: next = .halfOpen(probe: nil, probeSince: now)
                }
            default:
                // A call that started before the breaker opened, or a probe that already timed
                // out: its answer is stale and must not move the state.
                break
            }
            if case .closed(0) = next {
                table.phases[permit.key] = nil  // keeps the table as small as the set of sick hosts
            } else {
                table.phases[permit.key] = next
            }
            if case .open = next, !Self.isOpen(phase) { return true }
            return false
        }
        if tripped { onTrip?(permit.key) }
    }

    private static func isOpen(_ phase: Phase) -> Bool {
        if case .open = phase { return true }
        return false
    }

    /// The state of every key that is not plainly closed: open, half-open, or closed with
    /// failures counted. Keys never seen, or whose last call succeeded, are absent.
    public func unhealthyStates() -> [String: State] {
        let now = elapsed()
        return table.withLock { table in
            var states: [String: State] = [:]
            for (key, stored) in table.phases {
                let phase = current(stored, now: now)
                table.phases[key] = phase
                switch phase {
                case .closed: states[key] = .closed
                case .open: states[key] = .open
                case .halfOpen: states[key] = .halfOpen
                }
            }
            return states
        }
    }

    /// The state of `key` now, with elapsed open periods and probe timeouts applied.
    public func state(for key: String) -> State {
        let now = elapsed()
        return table.withLock { table in
            let phase = current(table.phases[key], now: now)
            if table.phases[key] != nil { table.phases[key] = phase }
            switch phase {
            case .closed: return .closed
            case .open: return .open
            case .halfOpen: return .halfOpen
            }
        }
    }

    /// Seconds until `key` lets a call through again: 0 when closed or a half-open probe slot is
    /// free; the rest of the open period when open; the rest of the probe's timeout while a probe
    /// is in flight (its answer may close the breaker sooner). Says *when* in refusal messages.
    public func secondsUntilPermitted(_ key: String) -> Double {
        let now = elapsed()
        let phase = table.withLock { table in current(table.phases[key], now: now) }
        let remaining: Duration
        switch phase {
        case .closed, .halfOpen(probe: nil, _): return 0
        case .open(let since): remaining = since + .seconds(openDuration) - now
        case .halfOpen(_?, let probeSince): remaining = probeSince + .seconds(probeTimeout) - now
        }
        let (whole, atto) = remaining.components
        return max(0, Double(whole) + Double(atto) / 1e18)
    }

    /// Applies the passage of time: an open period that ended becomes half-open with a free probe
    /// slot; a probe older than `probeTimeout` counts as failed, re-opening the breaker as of the
    /// instant it timed out (deterministic however late anyone looks).
    private func current(_ stored: Phase?, now: Duration) -> Phase {
        var phase = stored ?? .closed(failures: 0)
        let openFor = Duration.seconds(openDuration)
        let timeout = Duration.seconds(probeTimeout)
        while true {
            switch phase {
            case .open(let since) where now - since >= openFor:
                phase = .halfOpen(probe: nil, probeSince: since + openFor)
            case .halfOpen(_?, let probeSince) where now - probeSince >= timeout:
                phase = .open(since: probeSince + timeout)
            default:
                return phase
            }
        }
    }
}
