/// Per-operation retry counters: how often an operation needed retries, and whether they helped.
///
/// Why: a preset is only right if the numbers say so. Many `successesAfterRetry` mean retries are
/// earning their keep; many `failures` after full attempts mean the policy (or the server) is wrong.
/// Holds operation names only, never URLs or titles, so it can be logged or exported as is.
public actor RetryStatistics {
    /// The counters of one operation.
    public struct Snapshot: Sendable, Hashable, Codable {
        /// Calls of the body, first tries and retries together.
        public var attempts: Int
        /// Runs that succeeded without any retry.
        public var firstTrySuccesses: Int
        /// Runs that failed at least once and then succeeded.
        public var successesAfterRetry: Int
        /// Runs that ended with an error (not counting cancellations).
        public var failures: Int
        /// Runs stopped because the task was cancelled: the user's choice, not a failure.
        public var cancellations: Int

        public init(attempts: Int = 0, firstTrySuccesses: Int = 0, successesAfterRetry: Int = 0, failures: Int = 0, cancellations: Int = 0) {
            self.attempts = attempts
            self.firstTrySuccesses = firstTrySuccesses
            self.successesAfterRetry = successesAfterRetry
            self.failures = failures
            self.cancellations = cancellations
        }

        /// Completed runs of the operation.
        public var runs: Int { firstTrySuccesses + successesAfterRetry + failures + cancellations }
    }

    /// How one run of an operation ended.
    public enum Outcome: Sendable, Hashable {
        case success
        case failure
        case cancelled
    }

    private var counters: [String: Snapshot] = [:]

    public init() {}

    /// Records one finished run that called the body `attempts` times.
    public func record(operation: String, attempts: Int, outcome: Outcome) {
        var s = counters[operation] ?? Snapshot()
        s.attempts += max(0, attempts)
        switch outcome {
        case .success where attempts <= 1: s.firstTrySuccesses += 1
        case .success: s.successesAfterRetry += 1
        case .failure: s.failures += 1
        case .cancelled: s.cancellations += 1
        }
        counters[operation] = s
    }

    /// The counters of one operation (all zero if it never ran).
    public func snapshot(for operation: String) -> Snapshot {
        counters[operation] ?? Snapshot()
    }

    /// Every operation's counters.
    public func snapshots() -> [String: Snapshot] { counters }

    public func reset() { counters = [:] }
}
