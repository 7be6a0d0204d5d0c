/// Where `RetryStatistics` keeps its totals across runs.
///
/// Why a protocol: PlayerCore stays pure (no database); the Library layer supplies a SQLite store
/// and tests an in-memory one. Operations are `AnalyticsIdentifier`s, so no URL or title can be
/// stored under their name.
public protocol RetryStatisticsStore: Sendable {
    /// Adds one run's counters (a `RetryStatistics.Snapshot.run`) to `operation`'s totals.
    func add(_ run: RetryStatistics.Snapshot, to operation: AnalyticsIdentifier) async throws
    /// Every operation's totals.
    func totals() async throws -> [AnalyticsIdentifier: RetryStatistics.Snapshot]
}

/// Keeps totals in memory: for tests, and for programs without a library.
public actor InMemoryRetryStatisticsStore: RetryStatisticsStore {
    private var stored: [AnalyticsIdentifier: RetryStatistics.Snapshot] = [:]

    public init() {}

    public func add(_ run: RetryStatistics.Snapshot, to operation: AnalyticsIdentifier) {
        stored[operation] = (stored[operation] ?? RetryStatistics.Snapshot()) + run
    }

    public func totals() -> [AnalyticsIdentifier: RetryStatistics.Snapshot] { stored }
}
