import Foundation
import GRDB
import PlayerCore

/// Other devices' episode actions whose episode this library does not have yet: a new library
/// hears of places before it has fetched the feeds, a feed lists an episode only after another
/// device played it, a podcast moved to another address. They are kept (the latest per episode,
/// `EpisodeActionMerge.heldKey`) and merged by the same rules the moment the episode appears:
/// `LibraryStore` calls `apply` in the transaction that subscribes, refreshes or moves a feed, so
/// no episode is ever shown without the place another device left it at. The server's "since"
/// moving past an action never loses it.
enum HeldEpisodeActions {
    /// Keeps `actions` (each the latest for its episode in its batch), each replacing a held one
    /// for the same episode only when newer; past `SyncSchema.maxHeldActions` the oldest go.
    static func hold(_ actions: [GpodderWire.EpisodeAction], receivedAt: Double, _ db: Database) throws {
        guard !actions.isEmpty else { return }
        for action in actions {
            try db.execute(
                sql: """
                    INSERT INTO syncHeldAction (key, podcastURL, episodeURL, guid, action, at, started, position, total, receivedAt)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (key) DO UPDATE SET podcastURL = excluded.podcastURL, episodeURL = excluded.episodeURL,
                        guid = excluded.guid, action = excluded.action, at = excluded.at, started = excluded.started,
                        position = excluded.position, total = excluded.total, receivedAt = excluded.receivedAt
                    WHERE excluded.at > syncHeldAction.at
                    """,
                arguments: [
                    EpisodeActionMerge.heldKey(action), action.podcast, action.episode, action.guid, action.action.rawValue,
                    action.timestamp.timeIntervalSince1970, action.started, action.position, action.total, receivedAt,
                ])
        }
        try db.execute(
            sql: """
                DELETE FROM syncHeldAction WHERE key IN (
                    SELECT key FROM syncHeldAction ORDER BY at DESC LIMIT -1 OFFSET ?)
                """,
            arguments: [SyncSchema.maxHeldActions])
    }

    /// Merges the held actions whose episode is now in the library and forgets them (applied,
    /// or older than what the listener did since); returns how many episodes moved.
    @discardableResult
    static func apply(_ db: Database) throws -> Int {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM syncHeldAction)") == true else { return 0 }
        let held = try all(db)
        let outcome = EpisodeActionMerge.merge(held, into: try LibraryStore.syncedEpisodes(db))
        try LibraryStore.write(outcome.updates, db)
        let waiting = Set(outcome.held.map(EpisodeActionMerge.heldKey))
        for action in held where !waiting.contains(EpisodeActionMerge.heldKey(action)) {
            try db.execute(sql: "DELETE FROM syncHeldAction WHERE key = ?", arguments: [EpisodeActionMerge.heldKey(action)])
        }
        return outcome.updates.count
    }

    static func all(_ db: Database) throws -> [GpodderWire.EpisodeAction] {
        try Row.fetchAll(db, sql: "SELECT * FROM syncHeldAction ORDER BY at").compactMap { row in
            guard let kind = GpodderWire.EpisodeAction.Kind(rawValue: row["action"]) else { return nil }
            return GpodderWire.EpisodeAction(
                podcast: row["podcastURL"], episode: row["episodeURL"], guid: row["guid"], action: kind,
                timestamp: Date(timeIntervalSince1970: row["at"]), started: row["started"], position: row["position"], total: row["total"])
        }
    }
}

extension LibraryStore {
    /// How many episodes other devices have played or marked that this library does not have
    /// yet: their places wait for the episodes to appear.
    package func heldSyncActionCount() throws(PlaybackError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM syncHeldAction") ?? 0 }
    }
}
