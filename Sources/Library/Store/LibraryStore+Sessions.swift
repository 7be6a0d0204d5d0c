import Foundation
import GRDB
import PlayerCore

/// Multi-stage session files saved under a name: the file's absolute path and a copy of its JSON.
extension LibraryStore {
    /// Saves a session. `json` must be a JSON object with a non-empty `stages` array (the full
    /// rules are `SessionFile`'s, checked when it plays); it is stored as given, since it is a
    /// document, not a line of text. `path` must be absolute and is refused, not altered, when it
    /// holds control characters (an altered path names another file). Names are unique ignoring case.
    package func addSession(name: String, path: String, json: String) throws(PlaybackError) -> SessionRecord {
        let name = try LibraryText.requiredName(name, "session name")
        try SessionDocument.validate(path: path)
        let stageCount = try SessionDocument.stageCount(json)
        let addedAt = now().timeIntervalSince1970
        return try write { db in
            let key = LibraryText.key(name)
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM session WHERE nameKey = ?)", arguments: [key]) == true {
                throw PlaybackError(.alreadyInLibrary, underlying: "a session has that name")
            }
            try db.execute(
                sql: "INSERT INTO session (name, nameKey, path, json, stageCount, addedAt) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [name, key, path, json, stageCount, addedAt])
            return try SessionQueries.session(db, id: db.lastInsertedRowID)
        }
    }

    /// Every session, by name ignoring case.
    package func sessions() throws(PlaybackError) -> [SessionRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, path, stageCount, addedAt FROM session ORDER BY nameKey, id")
                .map(SessionRecord.init(row:))
        }
    }

    /// The session with this name (ignoring case), else with this numeric id; else `.notInLibrary`.
    package func session(named: String) throws(PlaybackError) -> SessionRecord {
        try read { db in try SessionQueries.session(db, id: SessionQueries.id(db, named: named)) }
    }

    /// The JSON saved with the session, to play it when its file has moved or changed.
    package func sessionJSON(id: Int64) throws(PlaybackError) -> String {
        try read { db in
            guard let json = try String.fetchOne(db, sql: "SELECT json FROM session WHERE id = ?", arguments: [id]) else {
                throw PlaybackError(.notInLibrary, underlying: "no session with that id")
            }
            return json
        }
    }

    /// Removes the session `session(named:)` finds.
    package func removeSession(named: String) throws(PlaybackError) {
        try write { db in
            try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [try SessionQueries.id(db, named: named)])
        }
    }
}

/// The checks a session must pass to be saved. Light on purpose: the Library layer does not
/// depend on AudioEngine's `SessionFile`, which validates everything when the session plays.
enum SessionDocument {
    static func validate(path: String) throws(PlaybackError) {
        guard path.hasPrefix("/"), path.utf8.count <= LibraryText.pathLength,
            !path.unicodeScalars.contains(where: TextSanitizer.isForbidden)
        else {
            throw PlaybackError(.malformedData, underlying: "a session path must be absolute, without control characters")
        }
    }

    static func stageCount(_ json: String) throws(PlaybackError) -> Int {
        guard json.utf8.count <= LibraryText.sessionJSONBytes else {
            throw PlaybackError(.documentTooLarge, underlying: "session file over \(LibraryText.sessionJSONBytes) bytes")
        }
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8))
        guard let stages = (object as? [String: Any])?["stages"] as? [Any], !stages.isEmpty else {
            throw PlaybackError(.malformedData, underlying: "session file: no stages")
        }
        return stages.count
    }
}

enum SessionQueries {
    static func id(_ db: Database, named name: String) throws -> Int64 {
        let candidates = try Row.fetchAll(db, sql: "SELECT id, name FROM session").map { row in
            LibraryLookup.Candidate(id: try row.decode(Int64.self, forColumn: "id"), name: try row.decode(String.self, forColumn: "name"))
        }
        return try LibraryLookup.require(LibraryLookup.named(name, among: candidates), "session")
    }

    static func session(_ db: Database, id: Int64) throws -> SessionRecord {
        guard let row = try Row.fetchOne(db, sql: "SELECT id, name, path, stageCount, addedAt FROM session WHERE id = ?", arguments: [id]) else {
            throw PlaybackError(.notInLibrary, underlying: "no session with that id")
        }
        return try SessionRecord(row: row)
    }
}
