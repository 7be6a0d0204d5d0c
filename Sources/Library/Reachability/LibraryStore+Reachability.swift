import Foundation
import GRDB
import PlayerCore

/// A library item whose runs the learned-retry rule follows.
package enum ReachabilityItem: Sendable, Hashable {
    /// A podcast's feed, refreshed.
    case feed(podcastID: Int64)
    /// A podcast's episodes, downloaded automatically.
    case downloads(podcastID: Int64)
    /// A station, started.
    case station(stationID: Int64)

    package var key: String {
        switch self {
        case .feed(let id): "feed:\(id)"
        case .downloads(let id): "downloads:\(id)"
        case .station(let id): "station:\(id)"
        }
    }

    init?(key: String) {
        let parts = key.split(separator: ":")
        guard parts.count == 2, let id = Int64(parts[1]) else { return nil }
        switch parts[0] {
        case "feed": self = .feed(podcastID: id)
        case "downloads": self = .downloads(podcastID: id)
        case "station": self = .station(stationID: id)
        default: return nil
        }
    }
}

/// One item's record, with where its server is (never which server).
package struct ReachabilityEntry: Sendable, Hashable {
    package var item: ReachabilityItem
    package var hostClass: HostClass
    package var record: ReachabilityRecord
}

/// How runs ended on one class of hosts: by the try that succeeded (1: the first), and never.
package struct RunEndings: Sendable, Hashable {
    package var succeededAtTry: [Int: Int] = [:]
    package var neverRecovered = 0

    /// Runs that needed a retry and then worked.
    package var recoveredAfterRetries: Int { succeededAtTry.filter { $0.key > 1 }.values.reduce(0, +) }
}

extension LibraryStore {
    /// What is known about reaching `item`; an empty record when nothing is.
    package func reachability(_ item: ReachabilityItem) throws(PlaybackError) -> ReachabilityRecord {
        try read { db in try Self.record(db, item.key)?.record ?? ReachabilityRecord() }
    }

    /// Adds one run's ending to `item`'s record and to its host class's endings, in one
    /// transaction; returns the record after it.
    @discardableResult
    package func recordRun(
        _ item: ReachabilityItem, hostClass: HostClass, ending: RunEnding, at date: Date
    ) throws(PlaybackError) -> ReachabilityRecord {
        try write { db in
            let record = (try Self.record(db, item.key)?.record ?? ReachabilityRecord()).recording(ending, at: date)
            let (podcastID, stationID): (Int64?, Int64?) =
                switch item {
                case .feed(let id), .downloads(let id): (id, nil)
                case .station(let id): (nil, id)
                }
            try db.execute(
                sql: """
                    INSERT INTO reachability (item, podcastId, stationId, hostClass, consecutiveFailures, failingSince, lastAttempt,
                        lastSuccess, lastError, recoveredRuns, failedRuns)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (item) DO UPDATE SET hostClass = excluded.hostClass,
                        consecutiveFailures = excluded.consecutiveFailures, failingSince = excluded.failingSince,
                        lastAttempt = excluded.lastAttempt, lastSuccess = excluded.lastSuccess, lastError = excluded.lastError,
                        recoveredRuns = excluded.recoveredRuns, failedRuns = excluded.failedRuns
                    """,
                arguments: [
                    item.key, podcastID, stationID, hostClass.rawValue, record.consecutiveFailures,
                    record.failingSince?.timeIntervalSince1970, record.lastAttempt?.timeIntervalSince1970,
                    record.lastSuccess?.timeIntervalSince1970, record.lastError?.rawValue, record.recoveredRuns, record.failedRuns,
                ])
            let tries: Int =
                switch ending {
                case .succeeded(let tries): max(1, tries)
                case .failed: 0
                }
            try db.execute(
                sql: """
                    INSERT INTO runEnding (hostClass, tries, count) VALUES (?, ?, 1)
                    ON CONFLICT (hostClass, tries) DO UPDATE SET count = count + 1
                    """,
                arguments: [hostClass.rawValue, tries])
            return record
        }
    }

    /// Every item with a record, feeds first.
    package func reachabilityEntries() throws(PlaybackError) -> [ReachabilityEntry] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT item FROM reachability ORDER BY item").compactMap { try Self.record(db, $0) }
        }
    }

    /// How runs ended, per host class that has had any.
    package func runEndings() throws(PlaybackError) -> [HostClass: RunEndings] {
        try read { db in
            var endings: [HostClass: RunEndings] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT hostClass, tries, count FROM runEnding") {
                guard let hostClass = HostClass(rawValue: row["hostClass"]) else { continue }
                let tries: Int = row["tries"]
                let count: Int = row["count"]
                if tries == 0 {
                    endings[hostClass, default: RunEndings()].neverRecovered += count
                } else {
                    endings[hostClass, default: RunEndings()].succeededAtTry[tries, default: 0] += count
                }
            }
            return endings
        }
    }

    private static func record(_ db: Database, _ key: String) throws -> ReachabilityEntry? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM reachability WHERE item = ?", arguments: [key]),
            let item = ReachabilityItem(key: key)
        else { return nil }
        let date = { (column: String) -> Date? in (row[column] as Double?).map(Date.init(timeIntervalSince1970:)) }
        let record = ReachabilityRecord(
            consecutiveFailures: row["consecutiveFailures"], failingSince: date("failingSince"), lastAttempt: date("lastAttempt"),
            lastSuccess: date("lastSuccess"), lastError: (row["lastError"] as Int?).flatMap(PlaybackError.Code.init(rawValue:)),
            recoveredRuns: row["recoveredRuns"], failedRuns: row["failedRuns"])
        return ReachabilityEntry(item: item, hostClass: HostClass(rawValue: row["hostClass"]) ?? .internet, record: record)
    }
}
