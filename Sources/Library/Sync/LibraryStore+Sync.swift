import Foundation
import GRDB
import PlayerCore

/// The sync server this library is set up with. Printed by `tonearm sync status --json`.
package struct SyncAccount: Sendable, Equatable, Codable {
    package var server: URL
    package var username: String
    /// This library's name on the server (the API's device id).
    package var device: String
    package var deviceRegistered: Bool
    /// The server's timestamps to ask for changes after.
    package var subscriptionsSince: Int64
    package var actionsSince: Int64
    package var lastSyncAt: Date?
}

/// What is waiting to go to the server: subscription changes and episode actions, each with
/// what marks it sent.
package struct PendingSync: Sendable, Equatable {
    package var added: [String] = []
    package var removed: [String] = []
    package var actions: [GpodderWire.EpisodeAction] = []
    /// The queued download/delete rows behind some of `actions`.
    package var actionRows: [Int64] = []
    /// The positions behind the play and new actions, as they were read.
    package var positions: [SentPosition] = []
    /// Positions that changed but cannot be sent (no known length): marked handled with the rest.
    package var unsendable: [SentPosition] = []

    package init(
        added: [String] = [], removed: [String] = [], actions: [GpodderWire.EpisodeAction] = [], actionRows: [Int64] = [],
        positions: [SentPosition] = [], unsendable: [SentPosition] = []
    ) {
        self.added = added
        self.removed = removed
        self.actions = actions
        self.actionRows = actionRows
        self.positions = positions
        self.unsendable = unsendable
    }

    package var isEmpty: Bool { added.isEmpty && removed.isEmpty && actions.isEmpty && unsendable.isEmpty }

    /// A position row as it was when the action was built; marked sent only if still so.
    package struct SentPosition: Sendable, Equatable {
        package var episodeID: Int64
        package var updatedAt: Double
        package var position: Double
        package var played: Bool
    }
}

/// Podcast sync's side of the library: the account, what waits to be sent, and applying what
/// other devices did (`EpisodeActionMerge` decides; this writes).
extension LibraryStore {
    /// The account, or nil when this library does not sync.
    package func syncAccount() throws(PlaybackError) -> SyncAccount? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM syncAccount WHERE id = 1"),
                let server = try row.url("server")
            else { return nil }
            return SyncAccount(
                server: server, username: row["username"], device: row["device"], deviceRegistered: row["deviceRegistered"],
                subscriptionsSince: row["subscriptionsSince"], actionsSince: row["actionsSince"], lastSyncAt: try row.date("lastSyncAt"))
        }
    }

    /// Sets this library up to sync with `server` as `username`'s `device`, from the start: every
    /// subscription is offered to the server and every position is sent once (a first sync
    /// merges both sides, it never wipes either).
    package func setUpSync(server: URL, username: String, device: String) throws(PlaybackError) {
        let username = TextSanitizer.singleLine(username, maxLength: 128)
        let device = TextSanitizer.singleLine(device, maxLength: 64)
        guard !username.isEmpty, !device.isEmpty else { throw PlaybackError(.malformedData, underlying: "empty user or device name") }
        try write { db in
            try db.execute(sql: "DELETE FROM syncAccount")
            try db.execute(
                sql: "INSERT INTO syncAccount (id, server, username, device) VALUES (1, ?, ?, ?)",
                arguments: [server.absoluteString, username, device])
            try db.execute(sql: "DELETE FROM syncSubscriptionChange")
            try db.execute(sql: "DELETE FROM syncEpisodeAction")
            try db.execute(sql: "INSERT INTO syncSubscriptionChange (feedURL, change) SELECT feedURL, 'add' FROM podcast")
            try db.execute(sql: "UPDATE playbackPosition SET syncedAt = NULL, syncedPosition = NULL, syncedPlayed = NULL")
        }
    }

    /// Stops syncing: the account and everything waiting are forgotten; the library stays.
    package func forgetSync() throws(PlaybackError) {
        try write { db in
            try db.execute(sql: "DELETE FROM syncAccount")
            try db.execute(sql: "DELETE FROM syncSubscriptionChange")
            try db.execute(sql: "DELETE FROM syncEpisodeAction")
        }
    }

    package func markSyncDeviceRegistered() throws(PlaybackError) {
        try write { db in try db.execute(sql: "UPDATE syncAccount SET deviceRegistered = 1") }
    }

    /// Records the server timestamps to ask from next time, and when this sync ended.
    package func recordSync(subscriptionsSince: Int64? = nil, actionsSince: Int64? = nil) throws(PlaybackError) {
        let at = now().timeIntervalSince1970
        try write { db in
            if let subscriptionsSince { try db.execute(sql: "UPDATE syncAccount SET subscriptionsSince = ?", arguments: [subscriptionsSince]) }
            if let actionsSince { try db.execute(sql: "UPDATE syncAccount SET actionsSince = ?", arguments: [actionsSince]) }
            try db.execute(sql: "UPDATE syncAccount SET lastSyncAt = ?", arguments: [at])
        }
    }

    /// Everything waiting to be sent, as `device`'s actions.
    package func pendingSync(device: String) throws(PlaybackError) -> PendingSync {
        try read { db in
            var pending = PendingSync()
            for row in try Row.fetchAll(db, sql: "SELECT feedURL, change FROM syncSubscriptionChange ORDER BY feedURL") {
                let url: String = row["feedURL"]
                if (row["change"] as String) == "add" { pending.added.append(url) } else { pending.removed.append(url) }
            }
            for row in try Row.fetchAll(db, sql: "SELECT * FROM syncEpisodeAction ORDER BY id") {
                guard let kind = GpodderWire.EpisodeAction.Kind(rawValue: row["action"]) else { continue }
                let action = GpodderWire.EpisodeAction(
                    podcast: row["podcastURL"], episode: row["episodeURL"], guid: row["guid"], action: kind,
                    timestamp: Date(timeIntervalSince1970: row["at"]), device: device)
                if action.isUsable { pending.actions.append(action) }
                pending.actionRows.append(row["id"])
            }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT pp.episodeId, pp.position, pp.played, pp.updatedAt, pp.syncedPosition, pp.syncedPlayed,
                        COALESCE(pp.duration, e.duration) AS length, e.guid, e.audioURL, p.feedURL
                    FROM playbackPosition pp JOIN episode e ON e.id = pp.episodeId JOIN podcast p ON p.id = e.podcastId
                    WHERE pp.syncedAt IS NULL OR pp.updatedAt > pp.syncedAt
                    ORDER BY pp.updatedAt
                    """)
            for row in rows {
                let sent = PendingSync.SentPosition(
                    episodeID: row["episodeId"], updatedAt: row["updatedAt"], position: row["position"], played: row["played"])
                guard let action = Self.action(for: row, sent: sent, device: device) else {
                    pending.unsendable.append(sent)
                    continue
                }
                pending.actions.append(action)
                pending.positions.append(sent)
            }
            return pending
        }
    }

    /// The play or new action for a changed position, or nil when there is nothing truthful to
    /// send: a length unknown (the API needs it), or a start that was never more than opened.
    private static func action(for row: Row, sent: PendingSync.SentPosition, device: String) -> GpodderWire.EpisodeAction? {
        guard let audio: String = row["audioURL"] else { return nil }
        let at = Date(timeIntervalSince1970: sent.updatedAt.rounded(.down))
        let podcast: String = row["feedURL"]
        let guid: String = row["guid"]
        let wasPlayed = (row["syncedPlayed"] as Bool?) ?? false
        if !sent.played && sent.position < 1 {
            // Marked unplayed after the server heard it was played; else an episode only opened.
            return wasPlayed ? GpodderWire.EpisodeAction(podcast: podcast, episode: audio, guid: guid, action: .new, timestamp: at, device: device) : nil
        }
        guard let length: Double = row["length"], length.isFinite, length >= 1 else { return nil }
        let total = Int(length.rounded())
        let position = sent.played ? total : min(total, Int(sent.position.rounded(.down)))
        let syncedPosition = (row["syncedPosition"] as Double?).map { Int($0.rounded(.down)) } ?? 0
        let started = syncedPosition <= position ? max(0, syncedPosition) : 0
        let action = GpodderWire.EpisodeAction(
            podcast: podcast, episode: audio, guid: guid, action: .play, timestamp: at, started: started, position: position, total: total,
            device: device)
        return action.isUsable ? action : nil
    }

    /// Marks what `pending` held as sent: subscription changes that were not changed again since,
    /// the queued actions, and positions that were not moved again since.
    package func markSent(_ pending: PendingSync) throws(PlaybackError) {
        try write { db in
            for url in pending.added {
                try db.execute(sql: "DELETE FROM syncSubscriptionChange WHERE feedURL = ? AND change = 'add'", arguments: [url])
            }
            for url in pending.removed {
                try db.execute(sql: "DELETE FROM syncSubscriptionChange WHERE feedURL = ? AND change = 'remove'", arguments: [url])
            }
            for id in pending.actionRows { try db.execute(sql: "DELETE FROM syncEpisodeAction WHERE id = ?", arguments: [id]) }
            for sent in pending.positions + pending.unsendable {
                try db.execute(
                    sql: """
                        UPDATE playbackPosition SET syncedAt = updatedAt, syncedPosition = position, syncedPlayed = played
                        WHERE episodeId = ? AND updatedAt = ?
                        """,
                    arguments: [sent.episodeID, sent.updatedAt])
            }
        }
    }

    /// Forgets queued changes to `urls` that say `change` (a change the server itself told us
    /// of, which would otherwise go back to it).
    package func dropSubscriptionChanges(_ urls: [String], change: String) throws(PlaybackError) {
        try write { db in
            for url in urls {
                try db.execute(sql: "DELETE FROM syncSubscriptionChange WHERE feedURL = ? AND change = ?", arguments: [url, change])
            }
        }
    }

    /// Feed addresses with a change of the listener's still waiting to be sent.
    package func pendingSubscriptionChanges() throws(PlaybackError) -> [String: String] {
        try read { db in
            var changes: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT feedURL, change FROM syncSubscriptionChange") { changes[row["feedURL"]] = row["change"] }
            return changes
        }
    }

    /// Applies other devices' actions (see `EpisodeActionMerge` for the rules) in one transaction.
    package func applyEpisodeActions(_ actions: [GpodderWire.EpisodeAction]) throws(PlaybackError) -> EpisodeActionMerge.Outcome {
        try write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT e.id, e.guid, e.audioURL, p.feedURL, pp.position, pp.played, pp.updatedAt
                    FROM episode e JOIN podcast p ON p.id = e.podcastId LEFT JOIN playbackPosition pp ON pp.episodeId = e.id
                    """)
            let locals = rows.map { row in
                EpisodeActionMerge.Local(
                    id: row["id"], podcastURL: row["feedURL"], guid: row["guid"], audioURL: row["audioURL"],
                    position: (row["position"] as Double?) ?? 0, played: (row["played"] as Bool?) ?? false,
                    updatedAt: (row["updatedAt"] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
            let outcome = EpisodeActionMerge.merge(actions, into: locals)
            for update in outcome.updates {
                let at = update.at.timeIntervalSince1970
                try db.execute(
                    sql: """
                        INSERT INTO playbackPosition (episodeId, position, duration, played, updatedAt, syncedAt, syncedPosition, syncedPlayed)
                            VALUES (?, ?, NULL, ?, ?, ?, ?, ?)
                        ON CONFLICT (episodeId) DO UPDATE SET position = excluded.position, played = excluded.played,
                            updatedAt = excluded.updatedAt, syncedAt = excluded.syncedAt, syncedPosition = excluded.syncedPosition,
                            syncedPlayed = excluded.syncedPlayed
                        """,
                    arguments: [update.episodeID, update.position, update.played, at, at, update.position, update.played])
                if let duration = update.duration {
                    try db.execute(
                        sql: "UPDATE episode SET duration = ? WHERE id = ? AND (duration IS NULL OR duration <= 0)",
                        arguments: [duration, update.episodeID])
                }
            }
            return outcome
        }
    }
}
