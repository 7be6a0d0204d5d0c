import Foundation
import GRDB
import PlayerCore

/// Feeds that move: a subscription follows its feed to a new address (`itunes:new-feed-url`, a
/// permanent redirect), and a podcast's own identity (`podcast:guid`) keeps a moved feed from
/// being subscribed twice.
extension LibraryStore {
    /// What `moveFeed` did.
    package enum FeedMove: Sendable, Equatable {
        case moved(PodcastRecord)
        /// The podcast is already at that address.
        case unchanged
        /// Another subscription has that address: the podcast keeps its own, since the UNIQUE
        /// feed URL cannot hold both, and which of the two the listener wants is theirs to say.
        case addressInUse
        /// Not an http(s) address Tonearm may fetch (or too long to keep).
        case refused
    }

    /// Points podcast `podcastID` at `url` for every later fetch; episodes, positions and
    /// validators stay (the feed is the same document under another name).
    package func moveFeed(podcastID: Int64, to url: URL) throws(PlaybackError) -> FeedMove {
        guard WebAddress.isWeb(url), url.absoluteString.utf8.count <= LibraryLimits.maxURLLength else { return .refused }
        let key = url.absoluteString
        return try write { db in
            guard let current = try String.fetchOne(db, sql: "SELECT feedURL FROM podcast WHERE id = ?", arguments: [podcastID]) else {
                throw PlaybackError(.notInLibrary, underlying: "no podcast with that id")
            }
            if current == key { return .unchanged }
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM podcast WHERE feedURL = ?)", arguments: [key]) == true {
                return .addressInUse
            }
            try db.execute(sql: "UPDATE podcast SET feedURL = ? WHERE id = ?", arguments: [key, podcastID])
            try HeldEpisodeActions.apply(db)
            return .moved(try PodcastQueries.podcast(db, id: podcastID))
        }
    }

    /// The podcast's `podcast:guid` as last seen in its feed, or nil.
    package func podcastGUID(podcastID: Int64) throws(PlaybackError) -> String? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT podcastGUID FROM podcast WHERE id = ?", arguments: [podcastID]) else {
                throw PlaybackError(.notInLibrary, underlying: "no podcast with that id")
            }
            return try row.decode(String?.self, forColumn: "podcastGUID")
        }
    }
}

/// The `podcast:guid` checks `addPodcast` and `refreshPodcast` run inside their transactions.
enum FeedIdentity {
    /// `.alreadyInLibrary` when a subscription has `guid`: the same podcast under a moved URL.
    static func requireNew(_ db: Database, guid: String?) throws {
        guard let guid else { return }
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM podcast WHERE podcastGUID = ?)", arguments: [guid]) == true {
            throw PlaybackError(.alreadyInLibrary, underlying: "a podcast with that podcast:guid is already subscribed")
        }
    }

    /// Keeps the feed's `guid`; a feed that stops naming one keeps the one it named before.
    static func record(_ db: Database, podcastID: Int64, guid: String?) throws {
        guard let guid else { return }
        try db.execute(sql: "UPDATE podcast SET podcastGUID = ? WHERE id = ?", arguments: [guid, podcastID])
    }
}
