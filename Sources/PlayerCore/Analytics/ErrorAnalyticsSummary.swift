import Foundation

/// The error analytics summary, with fixed JSON keys: `totalErrors`, `errorsLast24Hours`,
/// `errorsLast7Days`, `retryableErrorsPercentage`, `topErrorTypes` (`type`, `count`),
/// `topErrorOperations` (`operation`, `errorCount`), `resolutionStats` and `successRate`.
///
/// Details:
/// - `retryableErrorsPercentage` and `successRate` are both fractions in 0...1 (`0.68`), not
///   percentages, whatever the first one's name says.
/// - `successRate` is the fraction of events whose resolution is an automatic or a manual retry
///   (the error was overcome); 0 when there are no events.
/// - `resolutionStats` maps each error type to `retry` (automatic), `manual` and `unresolved`, so
///   the three always sum to the type's total.
/// - The windows count events with `timestamp >= now - 24 h` (resp. 7 days); `totalErrors` counts
///   all retained events.
/// - Top lists are sorted by count descending, then name ascending, so the output is deterministic.
public struct ErrorAnalyticsSummary: Sendable, Codable, Equatable {
    /// One entry of `topErrorTypes`.
    public struct ErrorTypeCount: Sendable, Codable, Equatable {
        public var type: String
        public var count: Int

        public init(type: String, count: Int) {
            self.type = type
            self.count = count
        }
    }

    /// One entry of `topErrorOperations`.
    public struct OperationCount: Sendable, Codable, Equatable {
        public var operation: String
        public var errorCount: Int

        public init(operation: String, errorCount: Int) {
            self.operation = operation
            self.errorCount = errorCount
        }
    }

    /// How the events of one error type ended.
    public struct ResolutionCounts: Sendable, Codable, Equatable {
        /// Resolved by the engine's automatic retry.
        public var retry: Int
        /// Resolved by the user's Retry.
        public var manual: Int
        /// Not resolved.
        public var unresolved: Int

        public init(retry: Int = 0, manual: Int = 0, unresolved: Int = 0) {
            self.retry = retry
            self.manual = manual
            self.unresolved = unresolved
        }
    }

    public var totalErrors: Int
    public var errorsLast24Hours: Int
    public var errorsLast7Days: Int
    /// Fraction (0...1) of events whose error the engine retries by itself.
    public var retryableErrorsPercentage: Double
    public var topErrorTypes: [ErrorTypeCount]
    public var topErrorOperations: [OperationCount]
    /// Keyed by `errorType`.
    public var resolutionStats: [String: ResolutionCounts]
    /// Fraction (0...1) of events resolved by an automatic or manual retry; 0 without events.
    public var successRate: Double

    public init(
        totalErrors: Int, errorsLast24Hours: Int, errorsLast7Days: Int, retryableErrorsPercentage: Double,
        topErrorTypes: [ErrorTypeCount], topErrorOperations: [OperationCount],
        resolutionStats: [String: ResolutionCounts], successRate: Double
    ) {
        self.totalErrors = totalErrors
        self.errorsLast24Hours = errorsLast24Hours
        self.errorsLast7Days = errorsLast7Days
        self.retryableErrorsPercentage = retryableErrorsPercentage
        self.topErrorTypes = topErrorTypes
        self.topErrorOperations = topErrorOperations
        self.resolutionStats = resolutionStats
        self.successRate = successRate
    }

    /// Computes the summary of `events` as seen at `now`. Pure, so any store (in-memory, SQLite)
    /// and any caller (the CLI, tests) gets the same numbers from the same events.
    /// - Parameter events: the events kept.
    /// - Parameter now: the moment the last-24-hours and last-7-days counts are taken at.
    /// - Parameter topCount: the length limit of both top lists (below 0 counts as 0).
    public init(events: some Sequence<ErrorEvent>, now: Date, topCount: Int = 5) {
        let dayAgo = now.addingTimeInterval(-24 * 60 * 60)
        let weekAgo = now.addingTimeInterval(-7 * 24 * 60 * 60)
        var total = 0
        var lastDay = 0
        var lastWeek = 0
        var retryable = 0
        var resolved = 0
        var byType: [String: Int] = [:]
        var byOperation: [String: Int] = [:]
        var stats: [String: ResolutionCounts] = [:]
        for event in events {
            total += 1
            if event.timestamp >= dayAgo { lastDay += 1 }
            if event.timestamp >= weekAgo { lastWeek += 1 }
            if event.isRetryable { retryable += 1 }
            if event.resolution.isResolved { resolved += 1 }
            byType[event.errorType, default: 0] += 1
            byOperation[event.operation.rawValue, default: 0] += 1
            switch event.resolution {
            case .automaticRetry: stats[event.errorType, default: ResolutionCounts()].retry += 1
            case .manualRetry: stats[event.errorType, default: ResolutionCounts()].manual += 1
            case .unresolved: stats[event.errorType, default: ResolutionCounts()].unresolved += 1
            }
        }
        let limit = max(0, topCount)
        self.init(
            totalErrors: total,
            errorsLast24Hours: lastDay,
            errorsLast7Days: lastWeek,
            retryableErrorsPercentage: Self.fraction(retryable, of: total),
            topErrorTypes: Self.top(byType, limit).map { ErrorTypeCount(type: $0.key, count: $0.value) },
            topErrorOperations: Self.top(byOperation, limit).map { OperationCount(operation: $0.key, errorCount: $0.value) },
            resolutionStats: stats,
            successRate: Self.fraction(resolved, of: total)
        )
    }

    /// The summary of no events.
    public static let empty = ErrorAnalyticsSummary(events: [], now: Date(timeIntervalSince1970: 0))

    private static func fraction(_ part: Int, of whole: Int) -> Double {
        whole == 0 ? 0 : Double(part) / Double(whole)
    }

    private static func top(_ counts: [String: Int], _ limit: Int) -> ArraySlice<(key: String, value: Int)> {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(limit)
    }
}
