import Foundation
import GRDB
import PlayerCore

/// The music index: what an update writes and what browsing, searching and MPD's database
/// commands read. Every write of an update's batch is one transaction, so a crash mid-update
/// leaves the index as it was before that batch, never half a row.
extension LibraryStore {
    /// Every indexed file's stamp, by path: what an update compares the disk with.
    package func musicStamps() throws(PlaybackError) -> [String: MusicFileStamp] {
        try read { db in
            var stamps: [String: MusicFileStamp] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT path, modified, size FROM song")
            while let row = try rows.next() {
                stamps[row["path"]] = MusicFileStamp(modified: row["modified"], size: row["size"])
            }
            return stamps
        }
    }

    /// Writes one batch of an update: the files read (added, or replaced when they changed) and
    /// the paths gone from the disk. A file read again keeps its `added` date. `replacing` names
    /// cue sheets read again: their rows (the sheet's own failure, its tracks) go first, in the
    /// same transaction, so a sheet that lost a track loses its row.
    package func saveMusic(_ readings: [MusicFileReading], removing gone: [String] = [], replacing sheets: [String] = []) throws(PlaybackError) {
        let now = now().timeIntervalSince1970
        try write { db in
            for path in gone {
                try db.execute(sql: "DELETE FROM song WHERE path = ?", arguments: [path])
            }
            for sheet in sheets {
                try db.execute(sql: "DELETE FROM song WHERE path = ? OR directory = ?", arguments: [sheet, sheet])
            }
            for reading in readings {
                let tags: SongTags
                let failure: Int?
                switch reading.result {
                case .success(let read): (tags, failure) = (read, nil)
                case .failure(let error): (tags, failure) = (SongTags(), error.code.rawValue)
                }
                func joined(_ tag: SongTag) -> String? {
                    let values = tags[all: tag]
                    return values.isEmpty ? nil : values.joined(separator: "\n")
                }
                try db.execute(
                    sql: """
                        INSERT INTO song (path, directory, modified, size, added, tags, failure, title, artist, album, albumArtist,
                            genre, composer, performer, date, trackNumber, discNumber, duration)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT(path) DO UPDATE SET modified = excluded.modified, size = excluded.size, tags = excluded.tags,
                            failure = excluded.failure, title = excluded.title, artist = excluded.artist, album = excluded.album,
                            albumArtist = excluded.albumArtist, genre = excluded.genre, composer = excluded.composer,
                            performer = excluded.performer, date = excluded.date, trackNumber = excluded.trackNumber,
                            discNumber = excluded.discNumber, duration = excluded.duration
                        """,
                    arguments: [
                        reading.path, MusicFiles.directory(of: reading.path), reading.stamp.modified, reading.stamp.size, now,
                        LibraryJSON.value(tags) ?? "{}", failure, joined(.title), joined(.artist), joined(.album),
                        joined(.albumArtist), joined(.genre), joined(.composer), joined(.performer), tags[.date], tags.trackNumber,
                        tags.discNumber, tags.audio.duration,
                    ])
            }
        }
    }

    /// Marks an update finished now (MPD's `db_update`).
    package func markMusicUpdated() throws(PlaybackError) {
        let now = now().timeIntervalSince1970
        try write { db in
            try db.execute(sql: "INSERT INTO musicUpdate (id, finishedAt) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET finishedAt = ?", arguments: [now, now])
        }
    }

    /// When the last whole update finished (seconds since 1970), nil before the first: what a
    /// reader that keeps the songs in memory compares to know they are still the index's.
    package func musicUpdateStamp() throws(PlaybackError) -> Double? {
        try read { db in try Double.fetchOne(db, sql: "SELECT finishedAt FROM musicUpdate WHERE id = 1") }
    }

    /// Every indexed file, failures included, in path order.
    package func musicSongs() throws(PlaybackError) -> [MusicSongRecord] {
        try read { db in try Self.songs(db, where: "1", arguments: []) }
    }

    /// The files directly in `directory` ("" for the top), in path order.
    package func musicSongs(inDirectory directory: String) throws(PlaybackError) -> [MusicSongRecord] {
        try read { db in try Self.songs(db, where: "directory = ?", arguments: [directory]) }
    }

    /// The files in `directory` and every folder below it.
    package func musicSongs(under directory: String) throws(PlaybackError) -> [MusicSongRecord] {
        guard !directory.isEmpty else { return try musicSongs() }
        return try read { db in
            // substr() and length() both count characters (a byte count would cut a Cyrillic name).
            try Self.songs(db, where: "directory = ? OR substr(directory, 1, length(?)) = ?", arguments: [directory, directory + "/", directory + "/"])
        }
    }

    /// The file at `path`, if it is indexed (a cue sheet's image too: asked by its path, it is
    /// there).
    package func musicSong(path: String) throws(PlaybackError) -> MusicSongRecord? {
        try read { db in try Self.songs(db, where: "path = ?", arguments: [path], hidingImages: false).first }
    }

    /// Every folder that holds a song, directly or below, sorted: what `lsinfo` and `listall`
    /// show as directories.
    package func musicDirectories() throws(PlaybackError) -> [String] {
        let leaves = try read { db in try String.fetchAll(db, sql: "SELECT DISTINCT directory FROM song WHERE directory != ''") }
        var all = Set<String>()
        for leaf in leaves {
            var path = Substring(leaf)
            while !path.isEmpty, all.insert(String(path)).inserted {
                guard let slash = path.lastIndex(of: "/") else { break }
                path = path[..<slash]
            }
        }
        return all.sorted()
    }

    /// Songs whose text matches what the listener typed (every word, as a prefix), best first.
    package func searchMusic(_ text: String, limit: Int = 200) throws(PlaybackError) -> [MusicSongRecord] {
        guard let query = SearchQuery(text) else { return [] }
        return try read { db in
            let ids = try Int64.fetchAll(
                db, sql: "SELECT rowid FROM songSearch WHERE songSearch MATCH ? ORDER BY rank LIMIT ?", arguments: [query.expression, limit])
            guard !ids.isEmpty else { return [] }
            let found = try Self.songs(db, where: "id IN (\(ids.map { _ in "?" }.joined(separator: ",")))", arguments: StatementArguments(ids))
            let byID = Dictionary(uniqueKeysWithValues: found.map { ($0.id, $0) })
            return ids.compactMap { byID[$0] }
        }
    }

    /// Counts for `stats` and the library screen.
    package func musicTotals() throws(PlaybackError) -> MusicTotals {
        try read { db in
            var totals = MusicTotals()
            if let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT count(*) FILTER (WHERE failure IS NULL) AS songs, count(*) FILTER (WHERE failure IS NOT NULL) AS failures,
                        count(DISTINCT artist) AS artists, count(DISTINCT album) AS albums, coalesce(sum(duration), 0) AS playtime FROM song
                    """)
            {
                totals.songs = row["songs"]
                totals.failures = row["failures"]
                totals.artists = row["artists"]
                totals.albums = row["albums"]
                totals.playtime = row["playtime"]
            }
            if let finished = try Double.fetchOne(db, sql: "SELECT finishedAt FROM musicUpdate WHERE id = 1") {
                totals.lastUpdate = Date(timeIntervalSince1970: finished)
            }
            return totals
        }
    }

    /// Rows matching `condition`, in path order. A file a cue sheet's tracks play from is left
    /// out (`hidingImages`), as mpd hides a sheet's targets: its tracks stand for it, and the
    /// whole image beside them would be the album twice.
    private static func songs(
        _ db: Database, where condition: String, arguments: StatementArguments, hidingImages: Bool = true
    ) throws -> [MusicSongRecord] {
        let images = hidingImages ? " AND path NOT IN (SELECT json_extract(tags, '$.part.image') FROM song WHERE json_extract(tags, '$.part.image') IS NOT NULL)" : ""
        return try Row.fetchAll(db, sql: "SELECT id, path, modified, size, added, tags, failure FROM song WHERE (\(condition))\(images) ORDER BY path", arguments: arguments)
            .map { row in
                MusicSongRecord(
                    id: row["id"], path: row["path"], stamp: MusicFileStamp(modified: row["modified"], size: row["size"]),
                    added: Date(timeIntervalSince1970: row["added"]), tags: LibraryJSON.decoded(row["tags"]) ?? SongTags(),
                    failure: (row["failure"] as Int?).flatMap(PlaybackError.Code.init(rawValue:)))
            }
    }
}
