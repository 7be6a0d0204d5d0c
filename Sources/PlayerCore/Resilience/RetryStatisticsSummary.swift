/// How retries fared, per operation and overall: what `tonearm errors` prints and the Diagnostics
/// screen shows as the retry success rate.
///
/// Why its own value: the screens and the CLI must agree on one definition. The retry success
/// rate is, of the runs that needed at least one retry and then ended, the fraction that
/// succeeded (`successesAfterRetry / (successesAfterRetry + failuresAfterRetry)`). Runs that
/// succeeded at once, failed without retrying (a 404, a spent budget, an open breaker) or were
/// cancelled say nothing about whether retrying helps, so they are left out of the rate (but
/// counted in `runs`). Nil when nothing retried.
public struct RetryStatisticsSummary: Sendable, Hashable, Codable {
    /// One operation's line.
    public struct Operation: Sendable, Hashable, Codable {
        public var operation: String
        /// Completed runs (every outcome).
        public var runs: Int
        /// Calls of the body, first tries and retries together.
        public var attempts: Int
        /// Runs that retried and then ended (success or failure).
        public var retriedRuns: Int
        /// Of those, the ones that succeeded.
        public var successesAfterRetry: Int
        /// Fraction (0...1); nil when no run retried.
        public var retrySuccessRate: Double?

        public init(operation: String, snapshot: RetryStatistics.Snapshot) {
            self.operation = operation
            runs = snapshot.runs
            attempts = snapshot.attempts
            retriedRuns = snapshot.retriedRuns
            successesAfterRetry = snapshot.successesAfterRetry
            retrySuccessRate = snapshot.retrySuccessRate
        }
    }

    /// Sorted by operation name, so output is stable.
    public var operations: [Operation]
    /// Over all operations; nil when no run retried.
    public var retrySuccessRate: Double?
    /// Over all operations.
    public var retriedRuns: Int

    public init(_ snapshots: [String: RetryStatistics.Snapshot]) {
        operations = snapshots.sorted { $0.key < $1.key }.map { Operation(operation: $0.key, snapshot: $0.value) }
        let total = snapshots.values.reduce(RetryStatistics.Snapshot(), +)
        retriedRuns = total.retriedRuns
        retrySuccessRate = total.retrySuccessRate
    }

    /// No runs at all.
    public static let empty = RetryStatisticsSummary([:])
}
