import Foundation

/// What opt-in sharing remembers between runs (the library keeps it): the listener's answer, how
/// far the sent hours reach, and how the last attempts went. A value, changed only by the pure
/// functions below, so every rule about what may go out is tested without a network.
public struct AnalyticsSharingState: Sendable, Hashable {
    public var consent: AnalyticsConsent
    /// Every whole hour before this one has been sent, or had nothing to send.
    public var sentThrough: Date?
    /// The last export the endpoint accepted.
    public var lastSent: Date?
    /// The last export tried, accepted or not.
    public var lastAttempt: Date?
    /// Exports that failed since the last accepted one.
    public var failures: Int
    /// The retry budget refused the last failure a quick retry: the next try waits a whole interval.
    public var retryRefused: Bool

    public init(
        consent: AnalyticsConsent = .undecided, sentThrough: Date? = nil, lastSent: Date? = nil, lastAttempt: Date? = nil,
        failures: Int = 0, retryRefused: Bool = false
    ) {
        self.consent = consent
        self.sentThrough = sentThrough
        self.lastSent = lastSent
        self.lastAttempt = lastAttempt
        self.failures = failures
        self.retryRefused = retryRefused
    }

    /// The listener said yes at `now`. Only hours that start after this moment are ever sent:
    /// what happened before the answer stays on the machine.
    /// The last send is kept, so saying no and yes again never lets counts out sooner than the
    /// interval allows.
    public func granted(at now: Date) -> Self {
        guard consent != .granted else { return self }
        return AnalyticsSharingState(consent: .granted, sentThrough: HourlyErrorCount.hourBoundary(atOrAfter: now), lastSent: lastSent)
    }

    /// The listener said no (or withdrew a yes): nothing more is sent, and a later yes starts from
    /// its own moment.
    public func declined() -> Self {
        AnalyticsSharingState(consent: .declined, lastSent: lastSent)
    }

    /// The endpoint accepted every hour before `end` (or there was nothing to send, `sent` false).
    public func exported(before end: Date, at now: Date, sent: Bool) -> Self {
        var next = self
        next.sentThrough = end
        if sent {
            next.lastSent = now
            next.lastAttempt = now
        }
        next.failures = 0
        next.retryRefused = false
        return next
    }

    /// An export failed at `now`; `retryAllowed` is the retry budget's answer.
    public func failed(at now: Date, retryAllowed: Bool) -> Self {
        var next = self
        next.lastAttempt = now
        next.failures += 1
        next.retryRefused = !retryAllowed
        return next
    }
}

/// When opt-in sharing sends, as a pure function of its state and the time.
public struct AnalyticsSharingRule: Sendable, Hashable {
    /// Seconds between two exports, at least: nothing goes out more often, whatever happens.
    public var interval: Double
    /// Delays after a failed export (capped at `interval`), while the retry budget allows retries.
    public var retry: BackoffPolicy

    /// Once an hour: the counts are hourly, so a shorter interval would send nothing more.
    public static let standard = AnalyticsSharingRule(interval: 3600)

    /// A minute after the first failure, doubling up to an hour: an endpoint that is down for a
    /// day sees a few dozen tries from a player, not a stream.
    public static let exportRetry = BackoffPolicy(maxAttempts: .max, base: 60, multiplier: 2, cap: 3600)

    public init(interval: Double, retry: BackoffPolicy = exportRetry) {
        self.interval = max(interval, 1)
        self.retry = retry
    }

    public enum Decision: Sendable, Hashable {
        /// No consent: nothing is sent, and nothing is scheduled.
        case off
        /// Nothing may or can be sent before this time.
        case wait(until: Date)
        /// Send the whole hours in `from ..< before` now.
        case send(from: Date, before: Date)
    }

    public func decide(_ state: AnalyticsSharingState, now: Date) -> Decision {
        guard state.consent.allowsSharing, let sentThrough = state.sentThrough else { return .off }
        // The first moment a whole unsent hour exists.
        var due = sentThrough.addingTimeInterval(3600)
        if let lastSent = state.lastSent {
            due = max(due, lastSent.addingTimeInterval(interval))
        }
        if state.failures > 0, let lastAttempt = state.lastAttempt {
            let delay = state.retryRefused ? interval : min(retry.nominalDelay(forRetry: state.failures), interval)
            due = max(due, lastAttempt.addingTimeInterval(delay))
        }
        guard now >= due else { return .wait(until: due) }
        return .send(from: sentThrough, before: HourlyErrorCount.hourStart(of: now))
    }
}
