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
    /// The devices whose subscriptions this library shares, as the server last said.
    package var linkedDevices: [String] = []
}

/// What is waiting to go to the server: subscription changes, and this library's episode actions
/// in the order they happened (the outbox), each with what marks it sent.
package struct PendingSync: Sendable, Equatable {
    package var added: [String] = []
    package var removed: [String] = []
    /// The episode actions to send, oldest first.
    package var outbox: [OutboxItem] = []
    /// Changes with nothing truthful to send (an episode only opened, an address that is not
    /// http): marked handled with the rest.
    package var unsendable: [OutboxItem.Source] = []

    package init(added: [String] = [], removed: [String] = [], outbox: [OutboxItem] = [], unsendable: [OutboxItem.Source] = []) {
        self.added = added
        self.removed = removed
        self.outbox = outbox
        self.unsendable = unsendable
    }

    package var actions: [GpodderWire.EpisodeAction] { outbox.map(\.action) }

    package var isEmpty: Bool { added.isEmpty && removed.isEmpty && outbox.isEmpty && unsendable.isEmpty }

    /// One action and the row behind it.
    package struct OutboxItem: Sendable, Equatable {
        package enum Source: Sendable, Equatable {
            /// A queued download or delete.
            case queued(rowID: Int64)
            /// A play or new action built from a position row as it was read.
            case position(SentPosition)
        }

        package var action: GpodderWire.EpisodeAction
        package var source: Source
    }

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
                subscriptionsSince: row["subscriptionsSince"], actionsSince: row["actionsSince"], lastSyncAt: try row.date("lastSyncAt"),
                linkedDevices: (try? JSONDecoder().decode([String].self, from: Data((row["linkedDevices"] as String? ?? "[]").utf8))) ?? [])
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
            try db.execute(sql: "DELETE FROM syncHeldAction")
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
            try db.execute(sql: "DELETE FROM syncHeldAction")
        }
    }

    /// Keeps the devices this library's subscriptions are linked with, as the server said.
    package func recordLinkedDevices(_ devices: [String]) throws(PlaybackError) {
        let list = String(decoding: (try? JSONEncoder().encode(devices)) ?? Data("[]".utf8), as: UTF8.self)
        try write { db in try db.execute(sql: "UPDATE syncAccount SET linkedDevices = ?", arguments: [list]) }
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

    /// Everything waiting to be sent, as `device`'s actions: the outbox ordered by when each
    /// thing happened, so a server (or a device reading it) that keeps the last action it was
    /// sent sees them as the listener did them. An action's time is the change's own, so sending
    /// it twice (a batch whose answer was lost) gives the same action, which the merge on every
    /// device takes once.
    package func pendingSync(device: String) throws(PlaybackError) -> PendingSync {
        try read { db in
            var pending = PendingSync()
            for row in try Row.fetchAll(db, sql: "SELECT feedURL, change FROM syncSubscriptionChange ORDER BY feedURL") {
                let url: String = row["feedURL"]
                if (row["change"] as String) == "add" { pending.added.append(url) } else { pending.removed.append(url) }
            }
            var outbox: [PendingSync.OutboxItem] = []
            for row in try Row.fetchAll(db, sql: "SELECT * FROM syncEpisodeAction ORDER BY id") {
                guard let kind = GpodderWire.EpisodeAction.Kind(rawValue: row["action"]) else { continue }
                let action = GpodderWire.EpisodeAction(
                    podcast: row["podcastURL"], episode: row["episodeURL"], guid: row["guid"], action: kind,
                    timestamp: Date(timeIntervalSince1970: (row["at"] as Double).rounded(.down)), device: device)
                guard action.isUsable else {
                    pending.unsendable.append(.queued(rowID: row["id"]))
                    continue
                }
                outbox.append(PendingSync.OutboxItem(action: action, source: .queued(rowID: row["id"])))
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
                    pending.unsendable.append(.position(sent))
                    continue
                }
                outbox.append(PendingSync.OutboxItem(action: action, source: .position(sent)))
            }
            // Stable: within one second the queue's order and the positions' order stay.
            pending.outbox = outbox.enumerated().sorted { ($0.element.action.timestamp, $0.offset) < ($1.element.action.timestamp, $1.offset) }
                .map(\.element)
            return pending
        }
    }

    /// The play or new action for a changed position, or nil when there is nothing truthful to
    /// send: "played" with no length known, or a start that was never more than opened.
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
        // The API takes a play without its length; a "played" without one cannot be said.
        let total = (row["length"] as Double?).flatMap { $0.isFinite && $0 >= 1 ? Int($0.rounded()) : nil }
        if sent.played && total == nil { return nil }
        let heard = Int(sent.position.rounded(.down))
        let position = sent.played ? total ?? heard : total.map { min($0, heard) } ?? heard
        let syncedPosition = (row["syncedPosition"] as Double?).map { Int($0.rounded(.down)) } ?? 0
        let started = syncedPosition <= position ? max(0, syncedPosition) : 0
        let action = GpodderWire.EpisodeAction(
            podcast: podcast, episode: audio, guid: guid, action: .play, timestamp: at, started: started, position: position, total: total,
            device: device)
        return action.isUsable ? action : nil
    }

    /// Marks subscription changes as sent, unless they were changed again since.
    package func markSent(added: [String], removed: [String]) throws(PlaybackError) {
        try write { db in
            for url in added {
                try db.execute(sql: "DELETE FROM syncSubscriptionChange WHERE feedURL = ? AND change = 'add'", arguments: [url])
            }
            for url in removed {
                try db.execute(sql: "DELETE FROM syncSubscriptionChange WHERE feedURL = ? AND change = 'remove'", arguments: [url])
            }
        }
    }

    /// Marks outbox items (a batch the server took) and positions with nothing to send as handled:
    /// the queued actions go, and positions count as sent unless they moved again since.
    package func markSent(_ items: [PendingSync.OutboxItem], unsendable: [PendingSync.OutboxItem.Source] = []) throws(PlaybackError) {
        try write { db in
            for source in items.map(\.source) + unsendable {
                switch source {
                case .queued(let id):
                    try db.execute(sql: "DELETE FROM syncEpisodeAction WHERE id = ?", arguments: [id])
                case .position(let sent):
                    try db.execute(
                        sql: """
                            UPDATE playbackPosition SET syncedAt = updatedAt, syncedPosition = position, syncedPlayed = played
                            WHERE episodeId = ? AND updatedAt = ?
                            """,
                        arguments: [sent.episodeID, sent.updatedAt])
                }
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

    /// Applies other devices' actions (see `EpisodeActionMerge` for the rules) in one transaction,
    /// and keeps those whose episode this library does not have yet (`HeldEpisodeActions`).
    package func applyEpisodeActions(_ actions: [GpodderWire.EpisodeAction]) throws(PlaybackError) -> EpisodeActionMerge.Outcome {
        let receivedAt = now().timeIntervalSince1970
        return try write { db in
            let outcome = EpisodeActionMerge.merge(actions, into: try Self.syncedEpisodes(db))
            try Self.write(outcome.updates, db)
            try HeldEpisodeActions.hold(outcome.held, receivedAt: receivedAt, db)
            return outcome
        }
    }

    /// Every episode as the merge sees it.
    static func syncedEpisodes(_ db: Database) throws -> [EpisodeActionMerge.Local] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT e.id, e.guid, e.audioURL, p.feedURL, pp.position, pp.played, pp.updatedAt
                FROM episode e JOIN podcast p ON p.id = e.podcastId LEFT JOIN playbackPosition pp ON pp.episodeId = e.id
                """)
        return rows.map { row in
            EpisodeActionMerge.Local(
                id: row["id"], podcastURL: row["feedURL"], guid: row["guid"], audioURL: row["audioURL"],
                position: (row["position"] as Double?) ?? 0, played: (row["played"] as Bool?) ?? false,
                updatedAt: (row["updatedAt"] as Double?).map(Date.init(timeIntervalSince1970:)))
        }
    }

    /// Writes what the merge decided, stamped with the action's time and marked as synced, so
    /// it is not sent back.
    static func write(_ updates: [EpisodeActionMerge.Update], _ db: Database) throws {
        for update in updates {
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
    }
}
