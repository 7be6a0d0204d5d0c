import Foundation
import GRDB
import PlayerCore

/// `ErrorAnalytics`' persistent store: the `errorEvent` table of the library database.
///
/// It stores exactly `ErrorEvent`'s fields (id, timestamp, errorType, operation, userAction,
/// isRetryable, resolution) and nothing else, so no message, URL, path or title can reach the
/// file. "Oldest first" is by timestamp, then by insertion (rowid), as in `InMemoryErrorEventStore`.
/// Reading goes through `ErrorEvent`'s `Decodable` init (GRDB decodes rows with it), so every
/// value is re-validated on the way out, as the analytics model requires of anything on disk.
package struct SQLiteErrorEventStore: ErrorEventStore {
    let pool: DatabasePool

    init(pool: DatabasePool) {
        self.pool = pool
    }

    package func append(_ event: ErrorEvent) async throws {
        try await pool.write { db in
            // The same id again (an event re-recorded) replaces its fields and keeps its place.
            try db.execute(
                sql: """
                    INSERT INTO errorEvent (id, timestamp, errorType, operation, userAction, isRetryable, resolution)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET timestamp = excluded.timestamp, errorType = excluded.errorType,
                        operation = excluded.operation, userAction = excluded.userAction,
                        isRetryable = excluded.isRetryable, resolution = excluded.resolution
                    """,
                arguments: [
                    event.id.uuidString, ErrorEventColumns.seconds(event.timestamp), event.errorType,
                    event.operation.rawValue, event.userAction?.rawValue, event.isRetryable, event.resolution.rawValue,
                ])
        }
    }

    package func updateResolution(of id: ErrorEvent.ID, to resolution: ErrorEvent.Resolution) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE errorEvent SET resolution = ? WHERE id = ?", arguments: [resolution.rawValue, id.uuidString])
            return db.changesCount > 0
        }
    }

    package func events(since start: Date?) async throws -> [ErrorEvent] {
        let first = start.map(ErrorEventColumns.firstSecond(atOrAfter:))
        return try await pool.read { db in
            let columns = "SELECT id, timestamp, errorType, operation, userAction, isRetryable, resolution FROM errorEvent"
            let rows =
                if let first {
                    try StoredErrorEvent.fetchAll(
                        db, sql: columns + " WHERE timestamp >= ? ORDER BY timestamp, rowid", arguments: [first])
                } else {
                    try StoredErrorEvent.fetchAll(db, sql: columns + " ORDER BY timestamp, rowid")
                }
            return rows.map(\.event)
        }
    }

    package func count() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM errorEvent") ?? 0 }
    }

    package func prune(olderThan cutoff: Date, keepingAtMost maxEvents: Int) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM errorEvent WHERE timestamp < ?", arguments: [ErrorEventColumns.firstSecond(atOrAfter: cutoff)])
            var removed = db.changesCount
            let excess = (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM errorEvent") ?? 0) - max(0, maxEvents)
            if excess > 0 {
                try db.execute(
                    sql: "DELETE FROM errorEvent WHERE rowid IN (SELECT rowid FROM errorEvent ORDER BY timestamp, rowid LIMIT ?)",
                    arguments: [excess])
                removed += db.changesCount
            }
            return removed
        }
    }
}

/// The stored form of the timestamp.
enum ErrorEventColumns {
    /// Whole seconds since 1970 (`ErrorEvent` timestamps are whole seconds already).
    static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// The smallest stored second whose `Date` is `>= bound` by `Date`'s own comparison, so SQL
    /// bounds (`timestamp >= this`) select exactly the events the in-memory store would, even
    /// when `bound` has a fraction that converting between reference dates might round.
    static func firstSecond(atOrAfter bound: Date) -> Int64 {
        var second = Int64(bound.timeIntervalSince1970.rounded(.up))
        while Date(timeIntervalSince1970: Double(second - 1)) >= bound { second -= 1 }
        while Date(timeIntervalSince1970: Double(second)) < bound { second += 1 }
        return second
    }
}

/// One row decoded with `ErrorEvent`'s own validating `Decodable` init (PlayerCore offers no other
/// way to rebuild an event from its stored fields, on purpose).
private struct StoredErrorEvent: Decodable, FetchableRecord {
    let event: ErrorEvent

    init(from decoder: any Decoder) throws {
        event = try ErrorEvent(from: decoder)
    }
}
