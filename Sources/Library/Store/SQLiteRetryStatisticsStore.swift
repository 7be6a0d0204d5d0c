import Foundation
import GRDB
import PlayerCore

/// `RetryStatistics`' persistent store: the `retryStatistic` table of the library database, one
/// row of counters per operation, added to by each run (an upsert, so concurrent commands add up
/// rather than overwrite each other).
///
/// Only operation names and counts are stored; names are re-validated as `AnalyticsIdentifier`s
/// on the way in and out, so no URL, host or title can reach or leave the file under their cover.
package struct SQLiteRetryStatisticsStore: RetryStatisticsStore {
    let pool: DatabasePool

    init(pool: DatabasePool) {
        self.pool = pool
    }

    package func add(_ run: RetryStatistics.Snapshot, to operation: AnalyticsIdentifier) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO retryStatistic
                        (operation, attempts, firstTrySuccesses, successesAfterRetry, failures, failuresAfterRetry, cancellations)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (operation) DO UPDATE SET
                        attempts = attempts + excluded.attempts,
                        firstTrySuccesses = firstTrySuccesses + excluded.firstTrySuccesses,
                        successesAfterRetry = successesAfterRetry + excluded.successesAfterRetry,
                        failures = failures + excluded.failures,
                        failuresAfterRetry = failuresAfterRetry + excluded.failuresAfterRetry,
                        cancellations = cancellations + excluded.cancellations
                    """,
                arguments: [
                    AnalyticsIdentifier(operation.rawValue).rawValue, run.attempts, run.firstTrySuccesses, run.successesAfterRetry,
                    run.failures, run.failuresAfterRetry, run.cancellations,
                ])
        }
    }

    package func totals() async throws -> [AnalyticsIdentifier: RetryStatistics.Snapshot] {
        try await pool.read { db in
            var totals: [AnalyticsIdentifier: RetryStatistics.Snapshot] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM retryStatistic") {
                let operation = AnalyticsIdentifier(try row.decode(String.self, forColumn: "operation"))
                let counts = RetryStatistics.Snapshot(
                    attempts: try row.decode(Int.self, forColumn: "attempts"),
                    firstTrySuccesses: try row.decode(Int.self, forColumn: "firstTrySuccesses"),
                    successesAfterRetry: try row.decode(Int.self, forColumn: "successesAfterRetry"),
                    failures: try row.decode(Int.self, forColumn: "failures"),
                    failuresAfterRetry: try row.decode(Int.self, forColumn: "failuresAfterRetry"),
                    cancellations: try row.decode(Int.self, forColumn: "cancellations"))
                totals[operation] = (totals[operation] ?? RetryStatistics.Snapshot()) + counts
            }
            return totals
        }
    }
}
