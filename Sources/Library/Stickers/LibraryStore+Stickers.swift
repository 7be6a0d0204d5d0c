import GRDB
import PlayerCore

/// Stickers: values clients keep on objects (songs, by their path in the music directory),
/// independent of the music index, so a rescan or a file that disappears keeps them. Whether the
/// object exists is the caller's decision (MPD refuses a sticker on a song not in its database).
extension LibraryStore {
    /// The value of sticker `name`, nil when there is none.
    package func sticker(_ type: StickerType, uri: String, name: String) throws(StickerError) -> String? {
        try stickerRead { db in
            try String.fetchOne(
                db, sql: "SELECT value FROM sticker WHERE type = ? AND uri = ? AND name = ?", arguments: [type.rawValue, uri, name])
        }
    }

    /// Every sticker of the object, by name (byte order).
    package func stickers(_ type: StickerType, uri: String) throws(StickerError) -> [Sticker] {
        try stickerRead { db in
            try Row.fetchAll(
                db, sql: "SELECT name, value FROM sticker WHERE type = ? AND uri = ? ORDER BY name", arguments: [type.rawValue, uri]
            ).map { Sticker(name: $0["name"], value: $0["value"]) }
        }
    }

    /// Sets (or replaces) sticker `name`. Refused above `StickerLimits`; the count is checked in
    /// the same transaction as the write, so two clients cannot pass the bound together.
    package func setSticker(_ type: StickerType, uri: String, name: String, value: String) throws(StickerError) {
        try Self.check(name: name)
        guard !Self.hasControlCharacter(value) else { throw .controlCharacter }
        guard value.utf8.count <= StickerLimits.maxValueBytes else { throw .valueTooLong(limit: StickerLimits.maxValueBytes) }
        let overflow: Bool = try stickerWrite { db in
            let exists = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM sticker WHERE type = ? AND uri = ? AND name = ?)",
                arguments: [type.rawValue, uri, name]) ?? false
            if !exists {
                let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM sticker WHERE type = ? AND uri = ?", arguments: [type.rawValue, uri]) ?? 0
                guard count < StickerLimits.maxPerObject else { return true }
            }
            try db.execute(
                sql: "INSERT INTO sticker (type, uri, name, value) VALUES (?, ?, ?, ?) ON CONFLICT(type, uri, name) DO UPDATE SET value = excluded.value",
                arguments: [type.rawValue, uri, name, value])
            return false
        }
        if overflow { throw .tooManyStickers(limit: StickerLimits.maxPerObject) }
    }

    /// Deletes sticker `name`, or every sticker of the object when `name` is nil; how many went.
    @discardableResult
    package func deleteStickers(_ type: StickerType, uri: String, name: String? = nil) throws(StickerError) -> Int {
        try stickerWrite { db in
            if let name {
                try db.execute(sql: "DELETE FROM sticker WHERE type = ? AND uri = ? AND name = ?", arguments: [type.rawValue, uri, name])
            } else {
                try db.execute(sql: "DELETE FROM sticker WHERE type = ? AND uri = ?", arguments: [type.rawValue, uri])
            }
            return db.changesCount
        }
    }

    /// The objects under `directory` ("" for all; otherwise the URIs that start with
    /// `directory/`) that have sticker `name` with a value `comparison` keeps, by URI (byte order).
    package func findStickers(
        _ type: StickerType, under directory: String, name: String, _ comparison: StickerComparison = .exists
    ) throws(StickerError) -> [StickerMatch] {
        var sql = "SELECT uri, value FROM sticker WHERE type = ? AND name = ?"
        var arguments: StatementArguments = [type.rawValue, name]
        if !directory.isEmpty {
            // length() and substr() both count characters, so a non-ASCII prefix compares whole.
            sql += " AND substr(uri, 1, length(?)) = ?"
            arguments += [directory + "/", directory + "/"]
        }
        switch comparison {
        case .exists: break
        case .equals(let value):
            sql += " AND value = ?"
            arguments += [value]
        case .lessThan(let value):
            sql += " AND value < ?"
            arguments += [value]
        case .greaterThan(let value):
            sql += " AND value > ?"
            arguments += [value]
        }
        sql += " ORDER BY uri"
        let query = sql
        let bound = arguments
        return try stickerRead { db in
            try Row.fetchAll(db, sql: query, arguments: bound).map { StickerMatch(uri: $0["uri"], value: $0["value"]) }
        }
    }

    private static func check(name: String) throws(StickerError) {
        guard !name.isEmpty else { throw .emptyName }
        guard !hasControlCharacter(name) else { throw .controlCharacter }
        guard name.utf8.count <= StickerLimits.maxNameBytes else { throw .nameTooLong(limit: StickerLimits.maxNameBytes) }
    }

    /// Line breaks and NUL: what would end or cut a line of MPD's protocol when told back.
    private static func hasControlCharacter(_ text: String) -> Bool {
        text.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x00 }
    }

    private func stickerRead<T>(_ body: (Database) throws -> T) throws(StickerError) -> T {
        do { return try read(body) } catch { throw .store(error) }
    }

    private func stickerWrite<T>(_ body: (Database) throws -> T) throws(StickerError) -> T {
        do { return try write(body) } catch { throw .store(error) }
    }
}
