import Foundation
import GRDB
import PlayerCore

/// What a queue entry stands for: one episode, station or session of the library.
package enum QueueTarget: Sendable, Hashable {
    case episode(Int64)
    case station(Int64)
    case session(Int64)

    /// `episode`, `station` or `session`.
    package var kind: String {
        switch self {
        case .episode: "episode"
        case .station: "station"
        case .session: "session"
        }
    }

    /// The library id of what it names.
    package var itemID: Int64 {
        switch self {
        case .episode(let id), .station(let id), .session(let id): id
        }
    }
}

/// One entry of the "up next" queue, with the names a list shows. Printed by `queue --json`, so
/// its property names are the JSON keys.
package struct QueueEntryRecord: Sendable, Equatable, Encodable {
    /// The entry's own id (not the item's): what `queue remove` and `queue move` take.
    package var id: Int64
    /// 0 for the first entry.
    package var index: Int
    package var kind: String
    package var itemID: Int64
    package var title: String
    /// The podcast of an episode, the genre of a station, the stage count of a session.
    package var detail: String?
    package var target: QueueTarget {
        switch kind {
        case "station": .station(itemID)
        case "session": .session(itemID)
        default: .episode(itemID)
        }
    }

    private enum CodingKeys: String, CodingKey { case id, index, kind, itemID, title, detail }
}

/// The listener's "up next" queue: entries in order, each at most once, kept in the library so the
/// terminal, the command line and a later run all see the same queue.
extension LibraryStore {
    /// Every entry, first to last.
    package func queue() throws(PlaybackError) -> [QueueEntryRecord] {
        try read { db in try QueueQueries.all(db) }
    }

    /// Adds `target` at `index` (the end when nil or past it). An item already queued is
    /// `.alreadyInLibrary`; one the library does not have is `.notInLibrary`.
    @discardableResult
    package func enqueue(_ target: QueueTarget, at index: Int? = nil) throws(PlaybackError) -> QueueEntryRecord {
        let addedAt = now().timeIntervalSince1970
        return try write { db in
            guard try QueueQueries.exists(db, target) else { throw PlaybackError(.notInLibrary, underlying: "no \(target.kind) with that id") }
            let column = QueueQueries.column(target)
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM queueEntry WHERE \(column) = ?)", arguments: [target.itemID]) == true {
                throw PlaybackError(.alreadyInLibrary, underlying: "already in the queue")
            }
            var order = try Int64.fetchAll(db, sql: "SELECT id FROM queueEntry ORDER BY position, id")
            try db.execute(
                sql: "INSERT INTO queueEntry (position, \(column), addedAt) VALUES (?, ?, ?)", arguments: [order.count, target.itemID, addedAt])
            let id = db.lastInsertedRowID
            order.insert(id, at: min(max(0, index ?? order.count), order.count))
            try QueueQueries.renumber(db, order)
            return try QueueQueries.all(db).first { $0.id == id }!
        }
    }

    /// Removes the entry with `entryID`; `.notInLibrary` when there is none.
    package func removeFromQueue(entryID: Int64) throws(PlaybackError) {
        try write { db in
            try db.execute(sql: "DELETE FROM queueEntry WHERE id = ?", arguments: [entryID])
            if db.changesCount == 0 { throw PlaybackError(.notInLibrary, underlying: "no queue entry with that id") }
            try QueueQueries.renumber(db, try Int64.fetchAll(db, sql: "SELECT id FROM queueEntry ORDER BY position, id"))
        }
    }

    /// Removes `target`'s entry, if it is queued (an episode that ended, an item skipped past).
    /// Returns whether there was one.
    @discardableResult
    package func removeFromQueue(_ target: QueueTarget) throws(PlaybackError) -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM queueEntry WHERE \(QueueQueries.column(target)) = ?", arguments: [target.itemID])
            guard db.changesCount > 0 else { return false }
            try QueueQueries.renumber(db, try Int64.fetchAll(db, sql: "SELECT id FROM queueEntry ORDER BY position, id"))
            return true
        }
    }

    /// Moves the entry with `entryID` to `index` (clamped to the queue).
    package func moveInQueue(entryID: Int64, to index: Int) throws(PlaybackError) {
        try write { db in
            var order = try Int64.fetchAll(db, sql: "SELECT id FROM queueEntry ORDER BY position, id")
            guard let from = order.firstIndex(of: entryID) else { throw PlaybackError(.notInLibrary, underlying: "no queue entry with that id") }
            order.remove(at: from)
            order.insert(entryID, at: min(max(0, index), order.count))
            try QueueQueries.renumber(db, order)
        }
    }

    /// Empties the queue (what it named stays in the library).
    package func clearQueue() throws(PlaybackError) {
        try write { db in try db.execute(sql: "DELETE FROM queueEntry") }
    }
}

/// The queue's queries.
enum QueueQueries {
    static func column(_ target: QueueTarget) -> String {
        switch target {
        case .episode: "episodeId"
        case .station: "stationId"
        case .session: "sessionId"
        }
    }

    static func exists(_ db: Database, _ target: QueueTarget) throws -> Bool {
        let table = switch target {
        case .episode: "episode"
        case .station: "station"
        case .session: "session"
        }
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)", arguments: [target.itemID]) == true
    }

    /// Positions 0, 1, 2... in `order`.
    static func renumber(_ db: Database, _ order: [Int64]) throws {
        for (position, id) in order.enumerated() {
            try db.execute(sql: "UPDATE queueEntry SET position = ? WHERE id = ?", arguments: [position, id])
        }
    }

    static func all(_ db: Database) throws -> [QueueEntryRecord] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT q.id, q.episodeId, q.stationId, q.sessionId,
                    e.title AS episodeTitle, p.title AS podcastTitle,
                    s.name AS stationName, s.genre AS stationGenre,
                    x.name AS sessionName, x.stageCount AS stageCount
                FROM queueEntry q
                LEFT JOIN episode e ON e.id = q.episodeId
                LEFT JOIN podcast p ON p.id = e.podcastId
                LEFT JOIN station s ON s.id = q.stationId
                LEFT JOIN session x ON x.id = q.sessionId
                ORDER BY q.position, q.id
                """)
        return try rows.enumerated().map { index, row in
            let id = try row.decode(Int64.self, forColumn: "id")
            if let episode = try row.decode(Int64?.self, forColumn: "episodeId") {
                return QueueEntryRecord(
                    id: id, index: index, kind: "episode", itemID: episode, title: try row.decode(String.self, forColumn: "episodeTitle"),
                    detail: try row.decode(String?.self, forColumn: "podcastTitle"))
            }
            if let station = try row.decode(Int64?.self, forColumn: "stationId") {
                return QueueEntryRecord(
                    id: id, index: index, kind: "station", itemID: station, title: try row.decode(String.self, forColumn: "stationName"),
                    detail: try row.decode(String?.self, forColumn: "stationGenre"))
            }
            let session = try row.decode(Int64.self, forColumn: "sessionId")
            let stages = try row.decode(Int.self, forColumn: "stageCount")
            return QueueEntryRecord(
                id: id, index: index, kind: "session", itemID: session, title: try row.decode(String.self, forColumn: "sessionName"),
                detail: "\(stages) stage\(stages == 1 ? "" : "s")")
        }
    }
}
