import Foundation
import GRDB
import PlayerCore

/// Internet radio stations the listener saved, by name.
extension LibraryStore {
    /// Saves a station. Names are unique ignoring case (`.alreadyInLibrary`); an empty name is
    /// `.malformedData`.
    package func addStation(name: String, url: URL, genre: String? = nil, directoryID: String? = nil) throws(PlaybackError) -> StationRecord {
        let name = try LibraryText.requiredName(name, "station name")
        let genre = LibraryText.optional(genre)
        let addedAt = now().timeIntervalSince1970
        return try write { db in
            let key = LibraryText.key(name)
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM station WHERE nameKey = ?)", arguments: [key]) == true {
                throw PlaybackError(.alreadyInLibrary, underlying: "a station has that name")
            }
            try db.execute(
                sql: "INSERT INTO station (name, nameKey, url, genre, addedAt, directoryID) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [name, key, url.absoluteString, genre, addedAt, directoryID])
            return try StationQueries.station(db, id: db.lastInsertedRowID)
        }
    }

    /// Every station, by name ignoring case.
    package func stations() throws(PlaybackError) -> [StationRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM station ORDER BY nameKey, id").map(StationRecord.init(row:))
        }
    }

    /// The station with this name (ignoring case), else with this numeric id; else `.notInLibrary`.
    package func station(named: String) throws(PlaybackError) -> StationRecord {
        try read { db in try StationQueries.station(db, id: StationQueries.id(db, named: named)) }
    }

    /// Renames the station with `id`; a name another station has (ignoring case) is `.alreadyInLibrary`.
    @discardableResult
    package func renameStation(id: Int64, to name: String) throws(PlaybackError) -> StationRecord {
        let name = try LibraryText.requiredName(name, "station name")
        let key = LibraryText.key(name)
        return try write { db in
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM station WHERE nameKey = ? AND id <> ?)", arguments: [key, id]) == true {
                throw PlaybackError(.alreadyInLibrary, underlying: "another station has that name")
            }
            try db.execute(sql: "UPDATE station SET name = ?, nameKey = ? WHERE id = ?", arguments: [name, key, id])
            if db.changesCount == 0 { throw PlaybackError(.notInLibrary, underlying: "no station with that id") }
            return try StationQueries.station(db, id: id)
        }
    }

    /// Removes the station `station(named:)` finds.
    package func removeStation(named: String) throws(PlaybackError) {
        try write { db in
            try db.execute(sql: "DELETE FROM station WHERE id = ?", arguments: [try StationQueries.id(db, named: named)])
        }
    }
}

enum StationQueries {
    static func id(_ db: Database, named name: String) throws -> Int64 {
        let candidates = try Row.fetchAll(db, sql: "SELECT id, name FROM station").map { row in
            LibraryLookup.Candidate(id: try row.decode(Int64.self, forColumn: "id"), name: try row.decode(String.self, forColumn: "name"))
        }
        return try LibraryLookup.require(LibraryLookup.named(name, among: candidates), "station")
    }

    static func station(_ db: Database, id: Int64) throws -> StationRecord {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM station WHERE id = ?", arguments: [id]) else {
            throw PlaybackError(.notInLibrary, underlying: "no station with that id")
        }
        return try StationRecord(row: row)
    }
}
