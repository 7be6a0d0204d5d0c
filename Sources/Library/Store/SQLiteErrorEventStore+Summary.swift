import Foundation
import GRDB
import PlayerCore

/// The analytics summary computed by SQLite: one grouped scan instead of decoding every event,
/// so `tonearm errors` stays fast over a large history.
///
/// It must equal `ErrorAnalyticsSummary(events:now:topCount:)` over the same events (a test holds
/// it to that): the windows use the same bounds (see `ErrorEventColumns.firstSecond`), group keys
/// are re-validated as decoding would (`AnalyticsIdentifier`), and the top lists use the same
/// order (count descending, then name ascending by Swift's `<`; identifiers are ASCII, where that
/// is SQLite's byte order too, but the sort is done in Swift so it cannot drift).
extension SQLiteErrorEventStore {
    package func summary(now: Date, topCount: Int) async throws -> ErrorAnalyticsSummary {
        let dayStart = ErrorEventColumns.firstSecond(atOrAfter: now.addingTimeInterval(-24 * 60 * 60))
        let weekStart = ErrorEventColumns.firstSecond(atOrAfter: now.addingTimeInterval(-7 * 24 * 60 * 60))
        let groups = try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT errorType, operation, isRetryable, resolution, COUNT(*) AS total,
                        SUM(timestamp >= ?) AS lastDay, SUM(timestamp >= ?) AS lastWeek
                    FROM errorEvent GROUP BY errorType, operation, isRetryable, resolution
                    """,
                arguments: [dayStart, weekStart]
            ).map(ErrorEventGroup.init(row:))
        }
        return ErrorEventGroup.summary(of: groups, topCount: topCount)
    }
}

/// The events sharing type, operation, retryability and resolution, counted.
struct ErrorEventGroup: Sendable {
    let errorType: String
    let operation: String
    let isRetryable: Bool
    let resolution: ErrorEvent.Resolution
    let total: Int
    let lastDay: Int
    let lastWeek: Int

    init(row: Row) throws {
        errorType = AnalyticsIdentifier(try row.decode(String.self, forColumn: "errorType")).rawValue
        operation = AnalyticsIdentifier(try row.decode(String.self, forColumn: "operation")).rawValue
        isRetryable = try row.decode(Bool.self, forColumn: "isRetryable")
        let resolutionName = try row.decode(String.self, forColumn: "resolution")
        guard let resolution = ErrorEvent.Resolution(rawValue: resolutionName) else {
            // Reading the events would fail on this row too.
            throw PlaybackError(.malformedData, underlying: "error event with an unknown resolution")
        }
        self.resolution = resolution
        total = try row.decode(Int.self, forColumn: "total")
        lastDay = try row.decode(Int.self, forColumn: "lastDay")
        lastWeek = try row.decode(Int.self, forColumn: "lastWeek")
    }

    static func summary(of groups: [ErrorEventGroup], topCount: Int) -> ErrorAnalyticsSummary {
        typealias Counts = ErrorAnalyticsSummary.ResolutionCounts
        var total = 0
        var lastDay = 0
        var lastWeek = 0
        var retryable = 0
        var resolved = 0
        var byType: [String: Int] = [:]
        var byOperation: [String: Int] = [:]
        var stats: [String: Counts] = [:]
        for group in groups {
            total += group.total
            lastDay += group.lastDay
            lastWeek += group.lastWeek
            if group.isRetryable { retryable += group.total }
            if group.resolution.isResolved { resolved += group.total }
            byType[group.errorType, default: 0] += group.total
            byOperation[group.operation, default: 0] += group.total
            switch group.resolution {
            case .automaticRetry: stats[group.errorType, default: Counts()].retry += group.total
            case .manualRetry: stats[group.errorType, default: Counts()].manual += group.total
            case .unresolved: stats[group.errorType, default: Counts()].unresolved += group.total
            }
        }
        let limit = max(0, topCount)
        return ErrorAnalyticsSummary(
            totalErrors: total,
            errorsLast24Hours: lastDay,
            errorsLast7Days: lastWeek,
            retryableErrorsPercentage: fraction(retryable, of: total),
            topErrorTypes: top(byType, limit).map { .init(type: $0.key, count: $0.value) },
            topErrorOperations: top(byOperation, limit).map { .init(operation: $0.key, errorCount: $0.value) },
            resolutionStats: stats,
            successRate: fraction(resolved, of: total))
    }

    /// As `ErrorAnalyticsSummary`'s (private) rules: 0 without events.
    private static func fraction(_ part: Int, of whole: Int) -> Double {
        whole == 0 ? 0 : Double(part) / Double(whole)
    }

    /// As `ErrorAnalyticsSummary`'s (private) rule: count descending, then name ascending.
    private static func top(_ counts: [String: Int], _ limit: Int) -> ArraySlice<(key: String, value: Int)> {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(limit)
    }
}
