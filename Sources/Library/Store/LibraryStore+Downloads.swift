import Foundation
import GRDB
import PlayerCore

/// Episodes kept on disk: where each download stands, and which podcasts download new episodes by
/// themselves. The files are the caller's; the store keeps what is known of them, so a download
/// continues in a later run where the last one stopped.
extension LibraryStore {
    /// The download of `episodeID`, or nil when it was never asked for.
    package func download(episodeID: Int64) throws(PlaybackError) -> DownloadRecord? {
        try read { db in
            try Row.fetchOne(db, sql: DownloadQueries.select + " WHERE d.episodeId = ?", arguments: [episodeID]).map(DownloadRecord.init(row:))
        }
    }

    /// Every download (of one podcast, when given), newest episode first.
    package func downloads(podcastID: Int64? = nil) throws(PlaybackError) -> [DownloadRecord] {
        try read { db in
            let filter = podcastID == nil ? "" : " WHERE e.podcastId = ?"
            let arguments: StatementArguments = podcastID.map { [$0] } ?? []
            return try Row.fetchAll(db, sql: DownloadQueries.select + filter + " " + EpisodeQueries.newestFirst, arguments: arguments)
                .map(DownloadRecord.init(row:))
        }
    }

    /// Marks the episode as downloading under `fileName`. What an earlier try fetched into the same
    /// file stays (its bytes and validators); another file name (the enclosure changed) starts
    /// from nothing.
    @discardableResult
    package func beginDownload(episodeID: Int64, fileName: String) throws(PlaybackError) -> DownloadRecord {
        let at = now().timeIntervalSince1970
        return try write { db in
            guard try EpisodeQueries.exists(db, id: episodeID) else {
                throw PlaybackError(.notInLibrary, underlying: "no episode with that id")
            }
            try db.execute(
                sql: """
                    INSERT INTO download (episodeId, fileName, state, updatedAt) VALUES (?, ?, 'downloading', ?)
                    ON CONFLICT (episodeId) DO UPDATE SET
                        state = 'downloading', errorCode = NULL, updatedAt = excluded.updatedAt, completedAt = NULL,
                        receivedBytes = CASE WHEN fileName = excluded.fileName THEN receivedBytes ELSE 0 END,
                        totalBytes = CASE WHEN fileName = excluded.fileName THEN totalBytes ELSE NULL END,
                        etag = CASE WHEN fileName = excluded.fileName THEN etag ELSE NULL END,
                        lastModified = CASE WHEN fileName = excluded.fileName THEN lastModified ELSE NULL END,
                        fileName = excluded.fileName
                    """,
                arguments: [episodeID, fileName, at])
            return try DownloadQueries.download(db, episodeID: episodeID)
        }
    }

    /// Keeps the validators of the server's file the partial bytes now belong to.
    package func recordDownloadValidators(episodeID: Int64, etag: String?, lastModified: String?, totalBytes: Int64?) throws(PlaybackError) {
        let etag = LibraryText.optional(etag, maxLength: LibraryText.headerLength)
        let lastModified = LibraryText.optional(lastModified, maxLength: LibraryText.headerLength)
        let at = now().timeIntervalSince1970
        try write { db in
            try db.execute(
                sql: "UPDATE download SET etag = ?, lastModified = ?, totalBytes = ?, updatedAt = ? WHERE episodeId = ?",
                arguments: [etag, lastModified, totalBytes, at, episodeID])
        }
    }

    /// Bytes on disk so far (written now and then, not per chunk: the file itself is the truth).
    package func recordDownloadProgress(episodeID: Int64, receivedBytes: Int64, totalBytes: Int64?) throws(PlaybackError) {
        let at = now().timeIntervalSince1970
        try write { db in
            try db.execute(
                sql: "UPDATE download SET receivedBytes = ?, totalBytes = COALESCE(?, totalBytes), updatedAt = ? WHERE episodeId = ?",
                arguments: [receivedBytes, totalBytes, at, episodeID])
        }
    }

    /// The file is whole under its final name.
    package func completeDownload(episodeID: Int64, bytes: Int64) throws(PlaybackError) {
        let at = now().timeIntervalSince1970
        try write { db in
            try db.execute(
                sql: """
                    UPDATE download SET state = 'downloaded', receivedBytes = ?, totalBytes = ?, errorCode = NULL, updatedAt = ?,
                        completedAt = ?
                    WHERE episodeId = ?
                    """,
                arguments: [bytes, bytes, at, at, episodeID])
        }
    }

    /// The last try failed with `code`; `receivedBytes` stay on disk for the next.
    package func failDownload(episodeID: Int64, code: PlaybackError.Code, receivedBytes: Int64) throws(PlaybackError) {
        let at = now().timeIntervalSince1970
        try write { db in
            try db.execute(
                sql: "UPDATE download SET state = 'failed', errorCode = ?, receivedBytes = ?, updatedAt = ? WHERE episodeId = ?",
                arguments: [code.rawValue, receivedBytes, at, episodeID])
        }
    }

    /// Forgets the episode's download (its files are the caller's to delete).
    package func removeDownload(episodeID: Int64) throws(PlaybackError) {
        try write { db in try db.execute(sql: "DELETE FROM download WHERE episodeId = ?", arguments: [episodeID]) }
    }

    /// Every file name the library knows of, final and partial: what the episodes folder may hold.
    package func downloadFileNames() throws(PlaybackError) -> Set<String> {
        try read { db in
            Set(try String.fetchAll(db, sql: "SELECT fileName FROM download").flatMap { [$0, DownloadRecord.partialName(of: $0)] })
        }
    }

    // MARK: - Downloading new episodes by themselves

    /// How many of the podcast's newest episodes are kept downloaded, or nil when it is off.
    package func autoDownload(podcastID: Int64) throws(PlaybackError) -> Int? {
        try read { db in try Int.fetchOne(db, sql: "SELECT keepLatest FROM podcastAutoDownload WHERE podcastId = ?", arguments: [podcastID]) }
    }

    /// The podcasts whose new episodes are downloaded by themselves.
    package func autoDownloadPodcasts() throws(PlaybackError) -> [Int64] {
        try read { db in try Int64.fetchAll(db, sql: "SELECT podcastId FROM podcastAutoDownload ORDER BY podcastId") }
    }

    /// Turns downloading new episodes on (keeping the newest `keepLatest`, at least 1) or off (nil).
    package func setAutoDownload(podcastID: Int64, keepLatest: Int?) throws(PlaybackError) {
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM podcast WHERE id = ?)", arguments: [podcastID]) == true else {
                throw PlaybackError(.notInLibrary, underlying: "no podcast with that id")
            }
            if let keepLatest {
                try db.execute(
                    sql: """
                        INSERT INTO podcastAutoDownload (podcastId, keepLatest) VALUES (?, ?)
                        ON CONFLICT (podcastId) DO UPDATE SET keepLatest = excluded.keepLatest
                        """,
                    arguments: [podcastID, max(1, keepLatest)])
            } else {
                try db.execute(sql: "DELETE FROM podcastAutoDownload WHERE podcastId = ?", arguments: [podcastID])
            }
        }
    }
}

/// The download queries: the download row with what deciding about it needs from the episode.
enum DownloadQueries {
    static let select = """
        SELECT d.*, e.podcastId AS podcastId, e.publishedAt AS publishedAt, COALESCE(pp.position, 0) AS position,
            COALESCE(pp.played, 0) AS played
        FROM download d
        JOIN episode e ON e.id = d.episodeId
        LEFT JOIN playbackPosition pp ON pp.episodeId = d.episodeId
        """

    static func download(_ db: Database, episodeID: Int64) throws -> DownloadRecord {
        guard let row = try Row.fetchOne(db, sql: select + " WHERE d.episodeId = ?", arguments: [episodeID]) else {
            throw PlaybackError(.notInLibrary, underlying: "no download of that episode")
        }
        return try DownloadRecord(row: row)
    }
}
