import Foundation
import GRDB
import PlayerCore

/// What was heard on the stations, and the songs the listener liked. Both stay on this machine.
extension LibraryStore {
    /// Keeps a title heard on `station` at `heardAt`. A title that repeats the station's latest
    /// (a reconnect, a status poll, the same block sent again) is not kept twice; each station
    /// keeps its newest `LibraryLimits.maxHeardTitlesPerStation`. Returns the entry, new or not.
    @discardableResult
    package func recordHeard(title: String, artist: String?, station: String, at heardAt: Date) throws(PlaybackError) -> HeardTitle {
        let title = try LibraryText.requiredName(title, "title")
        let artist = LibraryText.optional(artist)
        let station = try LibraryText.requiredName(station, "station name")
        let stationKey = LibraryText.key(station)
        return try write { db in
            if let latest = try Row.fetchOne(
                db, sql: "SELECT * FROM heardTitle WHERE stationKey = ? ORDER BY heardAt DESC, id DESC LIMIT 1", arguments: [stationKey]),
                latest["title"] as String == title, latest["artist"] as String? == artist
            {
                return try HeardTitle(row: latest)
            }
            try db.execute(
                sql: "INSERT INTO heardTitle (station, stationKey, title, artist, songKey, heardAt) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [station, stationKey, title, artist, Self.songKey(title: title, artist: artist), heardAt.timeIntervalSince1970])
            let id = db.lastInsertedRowID
            try db.execute(
                sql: """
                    DELETE FROM heardTitle WHERE stationKey = ? AND id NOT IN
                    (SELECT id FROM heardTitle WHERE stationKey = ? ORDER BY heardAt DESC, id DESC LIMIT ?)
                    """,
                arguments: [stationKey, stationKey, LibraryLimits.maxHeardTitlesPerStation])
            return HeardTitle(id: id, station: station, title: title, artist: artist, heardAt: heardAt)
        }
    }

    /// The titles heard, newest first: on one station (its name, ignoring case) or on all.
    package func history(station: String? = nil, limit: Int = 1_000) throws(PlaybackError) -> [HeardTitle] {
        try read { db in
            var sql = """
                SELECT heardTitle.*, favourite.id IS NOT NULL AS liked FROM heardTitle
                LEFT JOIN favourite ON favourite.songKey = heardTitle.songKey
                """
            var arguments: StatementArguments = []
            if let station {
                sql += " WHERE heardTitle.stationKey = ?"
                arguments += [LibraryText.key(TextSanitizer.singleLine(station))]
            }
            sql += " ORDER BY heardTitle.heardAt DESC, heardTitle.id DESC LIMIT ?"
            arguments += [max(1, limit)]
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map(HeardTitle.init(row:))
        }
    }

    /// Likes a song: kept once however often it is liked (the first like's time stays).
    @discardableResult
    package func like(title: String, artist: String?, station: String?, heardAt: Date?, at likedAt: Date) throws(PlaybackError) -> FavouriteSong {
        let title = try LibraryText.requiredName(title, "title")
        let artist = LibraryText.optional(artist)
        let station = LibraryText.optional(station)
        let key = Self.songKey(title: title, artist: artist)
        return try write { db in
            try db.execute(
                sql: """
                    INSERT INTO favourite (songKey, title, artist, station, heardAt, likedAt) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (songKey) DO NOTHING
                    """,
                arguments: [key, title, artist, station, heardAt?.timeIntervalSince1970, likedAt.timeIntervalSince1970])
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM favourite WHERE songKey = ?", arguments: [key]) else {
                throw PlaybackError(.libraryUnavailable, underlying: "the favourite was not kept")
            }
            return try FavouriteSong(row: row)
        }
    }

    /// Takes a song out of the favourites (nothing happens when it is not there).
    package func unlike(title: String, artist: String?) throws(PlaybackError) {
        let key = Self.songKey(title: TextSanitizer.singleLine(title), artist: LibraryText.optional(artist))
        try write { db in try db.execute(sql: "DELETE FROM favourite WHERE songKey = ?", arguments: [key]) }
    }

    /// The favourites, the latest liked first.
    package func favourites() throws(PlaybackError) -> [FavouriteSong] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM favourite ORDER BY likedAt DESC, id DESC").map(FavouriteSong.init(row:))
        }
    }

    /// One song however it was written: lowercased artist and title, joined by a unit separator.
    static func songKey(title: String, artist: String?) -> String {
        ((artist ?? "") + "\u{1F}" + title).lowercased()
    }
}
