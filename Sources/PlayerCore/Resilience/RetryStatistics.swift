/// Per-operation retry counters: how often an operation needed retries, and whether they helped.
///
/// Why: a preset is only right if the numbers say so. Many `successesAfterRetry` mean retries are
/// earning their keep; many `failures` after full attempts mean the policy (or the server) is wrong.
/// Holds operation names only, never URLs or titles, so it can be logged or exported as is.
///
/// With a `store` (the library database) every finished run is also added to persistent totals,
/// so `tonearm errors` and the Diagnostics screen can show how retries fared across runs. A store
/// failure never reaches the operation being counted: it is tallied in `storeFailureCount`.
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
        /// Of `failures`, the runs that had retried at least once: retries that did not help.
        public var failuresAfterRetry: Int
        /// Runs stopped because the task was cancelled: the user's choice, not a failure.
        public var cancellations: Int

        public init(
            attempts: Int = 0, firstTrySuccesses: Int = 0, successesAfterRetry: Int = 0, failures: Int = 0,
            failuresAfterRetry: Int = 0, cancellations: Int = 0
        ) {
            self.attempts = attempts
            self.firstTrySuccesses = firstTrySuccesses
            self.successesAfterRetry = successesAfterRetry
            self.failures = failures
            self.failuresAfterRetry = failuresAfterRetry
            self.cancellations = cancellations
        }

        /// Completed runs of the operation.
        public var runs: Int { firstTrySuccesses + successesAfterRetry + failures + cancellations }

        /// Runs that retried and then ended, successfully or not (cancellations left out).
        public var retriedRuns: Int { successesAfterRetry + failuresAfterRetry }

        /// Of the runs that retried, the fraction that then succeeded; nil when none retried (a
        /// rate over nothing would read as 0 % and blame retries that never ran).
        public var retrySuccessRate: Double? {
            retriedRuns == 0 ? nil : Double(successesAfterRetry) / Double(retriedRuns)
        }

        /// The counters of one finished run that called the body `attempts` times.
        public static func run(attempts: Int, outcome: Outcome) -> Snapshot {
            var s = Snapshot(attempts: max(0, attempts))
            switch outcome {
            case .success where attempts <= 1: s.firstTrySuccesses = 1
            case .success: s.successesAfterRetry = 1
            case .failure:
                s.failures = 1
                if attempts > 1 { s.failuresAfterRetry = 1 }
            case .cancelled: s.cancellations = 1
            }
            return s
        }

        /// Both sets of counters added together.
        public static func + (lhs: Snapshot, rhs: Snapshot) -> Snapshot {
            Snapshot(
                attempts: lhs.attempts + rhs.attempts, firstTrySuccesses: lhs.firstTrySuccesses + rhs.firstTrySuccesses,
                successesAfterRetry: lhs.successesAfterRetry + rhs.successesAfterRetry, failures: lhs.failures + rhs.failures,
                failuresAfterRetry: lhs.failuresAfterRetry + rhs.failuresAfterRetry, cancellations: lhs.cancellations + rhs.cancellations)
        }
    }

    /// How one run of an operation ended.
    public enum Outcome: Sendable, Hashable {
        case success
        case failure
        case cancelled
    }

    private var counters: [String: Snapshot] = [:]
    private let store: (any RetryStatisticsStore)?
    /// How many store writes failed.
    public private(set) var storeFailureCount = 0

    /// - Parameter store: where totals persist across runs; nil keeps them in memory only.
    public init(store: (any RetryStatisticsStore)? = nil) {
        self.store = store
    }

    /// Records one finished run that called the body `attempts` times.
    public func record(operation: String, attempts: Int, outcome: Outcome) async {
        let run = Snapshot.run(attempts: attempts, outcome: outcome)
        counters[operation] = (counters[operation] ?? Snapshot()) + run
        guard let store else { return }
        do {
            try await store.add(run, to: AnalyticsIdentifier(operation))
        } catch {
            storeFailureCount += 1
        }
    }

    /// The counters of one operation (all zero if it never ran).
    public func snapshot(for operation: String) -> Snapshot {
        counters[operation] ?? Snapshot()
    }

    /// Every operation's counters (this process's runs).
    public func snapshots() -> [String: Snapshot] { counters }

    /// The summary of this process's runs.
    public func summary() -> RetryStatisticsSummary { RetryStatisticsSummary(counters) }

    /// The summary of the persistent totals (every run recorded in the store), or of this
    /// process's runs without a store.
    public func persistedSummary() async throws -> RetryStatisticsSummary {
        guard let store else { return summary() }
        return RetryStatisticsSummary(try await store.totals().reduce(into: [:]) { $0[$1.key.rawValue] = $1.value })
    }

    public func reset() { counters = [:] }
}
