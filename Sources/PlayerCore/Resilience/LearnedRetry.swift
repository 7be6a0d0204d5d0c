import Foundation

/// How one run of an operation on a library item ended (a feed's refresh with its retries, a
/// podcast's downloads, a station's start): what the learned-retry rule remembers.
public enum RunEnding: Sendable, Hashable {
    /// It worked, at the `tries`th try (1: the first).
    case succeeded(tries: Int)
    /// Every try failed; the last error's code.
    case failed(PlaybackError.Code)

    /// The ending of a run that threw `error`, or nil when the error says nothing about the item:
    /// the run was cancelled, the listener's own network was down, a breaker refused without a
    /// call, or the machine itself failed (the library's database, a full disk, the sound
    /// output). A laptop offline for a week must not learn that every feed is dead.
    public init?(failure error: PlaybackError) {
        guard CircuitBreaker.Outcome(error) != .abandoned, error.category != .system, error.category != .operation else { return nil }
        self = .failed(error.code)
    }
}

/// What Tonearm has learnt about reaching one library item: how its runs ended lately.
///
/// Why kept: retries and breakers forget on restart and judge a host by minutes. A feed whose
/// server was shut down last month costs every refresh its full backoff, forever; a listener sees
/// the same failure at every run and cannot tell a blip from an abandoned show.
public struct ReachabilityRecord: Sendable, Hashable, Codable {
    /// Runs that failed since the last success (or ever, if none succeeded).
    public var consecutiveFailures = 0
    /// When the first of those failures happened; nil while the last run succeeded.
    public var failingSince: Date?
    public var lastAttempt: Date?
    public var lastSuccess: Date?
    /// The last failed run's error code.
    public var lastError: PlaybackError.Code?
    /// Runs that succeeded only after retries.
    public var recoveredRuns = 0
    /// Runs that ended failed.
    public var failedRuns = 0

    public init(
        consecutiveFailures: Int = 0, failingSince: Date? = nil, lastAttempt: Date? = nil, lastSuccess: Date? = nil,
        lastError: PlaybackError.Code? = nil, recoveredRuns: Int = 0, failedRuns: Int = 0
    ) {
        self.consecutiveFailures = consecutiveFailures
        self.failingSince = failingSince
        self.lastAttempt = lastAttempt
        self.lastSuccess = lastSuccess
        self.lastError = lastError
        self.recoveredRuns = recoveredRuns
        self.failedRuns = failedRuns
    }

    /// The record after a run that ended `ending` at `date`. A success resets the failing run at once.
    public func recording(_ ending: RunEnding, at date: Date) -> ReachabilityRecord {
        var next = self
        next.lastAttempt = date
        switch ending {
        case .succeeded(let tries):
            next.consecutiveFailures = 0
            next.failingSince = nil
            next.lastSuccess = date
            if tries > 1 { next.recoveredRuns += 1 }
        case .failed(let code):
            if next.consecutiveFailures == 0 { next.failingSince = date }
            next.consecutiveFailures += 1
            next.failedRuns += 1
            next.lastError = code
        }
        return next
    }
}

/// What to do with the next run of an item.
public enum LearnedRetryDecision: Sendable, Hashable {
    /// Retries with the operation's full backoff, as for any item.
    case retryAsUsual
    /// One try, no backoff: it has not answered for long, so waiting through retries costs the
    /// listener time for nothing; if it answers, the record resets.
    case tryOnce(unreachableSince: Date)
    /// Left out of automatic work (a refresh of all feeds, automatic downloads) until `nextTry`,
    /// when one try goes out again. The listener's own request is never skipped.
    case skip(unreachableSince: Date, nextTry: Date)

    /// When the item stopped answering, when it is judged usually unreachable.
    public var unreachableSince: Date? {
        switch self {
        case .retryAsUsual: nil
        case .tryOnce(let since), .skip(let since, _): since
        }
    }
}

/// The rule that turns a `ReachabilityRecord` into a decision: an item whose last `failedRuns`
/// runs all failed, over at least `days` days, is usually unreachable. Pure, so its properties are
/// tested over many generated histories; the thresholds come from the configuration.
public struct LearnedRetryRule: Sendable, Hashable, Codable {
    /// Failed runs in a row before an item counts as usually unreachable (K).
    public var failedRuns: Int
    /// Days the failures must span (D): a bad evening never counts, however many refreshes it had.
    public var days: Double
    /// Hours between the single tries automatic work still makes, so an item that came back is
    /// found without the listener asking.
    public var probeHours: Double

    public static let standard = LearnedRetryRule(failedRuns: 5, days: 3, probeHours: 24)

    public init(failedRuns: Int, days: Double, probeHours: Double) {
        self.failedRuns = max(1, failedRuns)
        self.days = max(0, days)
        self.probeHours = max(0, probeHours)
    }

    /// - Parameter automatic: the run is automatic work, not the listener asking for this item.
    public func decide(_ record: ReachabilityRecord, now: Date, automatic: Bool) -> LearnedRetryDecision {
        guard record.consecutiveFailures >= failedRuns, let since = record.failingSince, now.timeIntervalSince(since) >= days * 86_400
        else { return .retryAsUsual }
        if automatic, let last = record.lastAttempt {
            let nextTry = last.addingTimeInterval(probeHours * 3_600)
            if nextTry > now { return .skip(unreachableSince: since, nextTry: nextTry) }
        }
        return .tryOnce(unreachableSince: since)
    }
}
