import Foundation
import GRDB
import PlayerCore

/// Podcasts and their episodes: subscribe, refresh (upsert by guid), list, find, remove.
extension LibraryStore {
    /// Subscribes to the feed at `feedURL` with the episodes it has now. The same feed URL twice
    /// is `.alreadyInLibrary`. Places other devices left in these episodes, held until now, are
    /// applied in the same transaction (`HeldEpisodeActions`).
    package func addPodcast(feedURL: URL, feed: PodcastFeed, validators: FeedValidators) throws(PlaybackError) -> PodcastRecord {
        let header = PodcastHeader(feed: feed, feedURL: feedURL, validators: validators)
        let episodes = EpisodeFields.unique(feed.episodes)
        let addedAt = now()
        return try write { db in
            let feedKey = feedURL.absoluteString
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM podcast WHERE feedURL = ?)", arguments: [feedKey]) == true {
                throw PlaybackError(.alreadyInLibrary, underlying: "podcast feed already subscribed")
            }
            try FeedIdentity.requireNew(db, guid: feed.podcastGUID)
            try db.execute(
                sql: """
                    INSERT INTO podcast (title, author, summary, link, imageURL, etag, lastModified, persons, funding, feedURL, addedAt, lastCheckedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: header.arguments + [feedKey, addedAt.timeIntervalSince1970, addedAt.timeIntervalSince1970])
            let id = db.lastInsertedRowID
            try FeedIdentity.record(db, podcastID: id, guid: feed.podcastGUID)
            try EpisodeFields.insert(db, podcastID: id, episodes.enumerated().map { ($1, $0) })
            try HeldEpisodeActions.apply(db)
            return try PodcastQueries.podcast(db, id: id)
        }
    }

    /// Applies a freshly fetched feed (a 200): the podcast's texts and validators are replaced,
    /// episodes are matched by guid (new ones added, changed ones updated), and the listener's
    /// positions and played flags are kept. Episodes gone from the feed stay, with their positions;
    /// new ones take the places other devices left in them (`HeldEpisodeActions`).
    /// One transaction: a 5,000-episode feed is one commit.
    package func refreshPodcast(id: Int64, feed: PodcastFeed, validators: FeedValidators) throws(PlaybackError) -> RefreshResult {
        var header = PodcastHeader(feed: feed, feedURL: nil, validators: validators)
        let episodes = EpisodeFields.unique(feed.episodes)
        let checkedAt = now()
        return try write { db in
            guard let storedTitle = try String.fetchOne(db, sql: "SELECT title FROM podcast WHERE id = ?", arguments: [id]) else {
                throw PlaybackError(.notInLibrary, underlying: "no podcast with that id")
            }
            if header.title.isEmpty { header.title = storedTitle }
            try db.execute(
                sql: """
                    UPDATE podcast SET title = ?, author = ?, summary = ?, link = ?, imageURL = ?, etag = ?, lastModified = ?,
                        persons = ?, funding = ?, lastCheckedAt = ?
                    WHERE id = ?
                    """,
                arguments: header.arguments + [checkedAt.timeIntervalSince1970, id])
            try FeedIdentity.record(db, podcastID: id, guid: feed.podcastGUID)
            var known: [String: (id: Int64, fields: EpisodeFields, feedOrder: Int)] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT id, feedOrder, \(EpisodeFields.columns) FROM episode WHERE podcastId = ?", arguments: [id])
            while let row = try rows.next() {
                let fields = try EpisodeFields(row: row)
                known[fields.guid] = (try row.decode(Int64.self, forColumn: "id"), fields, try row.decode(Int.self, forColumn: "feedOrder"))
            }
            var added: [(fields: EpisodeFields, feedOrder: Int)] = []
            var updated = 0
            for (order, episode) in episodes.enumerated() {
                guard let stored = known[episode.guid] else {
                    added.append((episode, order))
                    continue
                }
                if stored.fields != episode {
                    try episode.update(db, episodeID: stored.id, feedOrder: order)
                    updated += 1
                } else if stored.feedOrder != order {
                    // New items pushed it down the feed: not a change the listener would call an update.
                    try EpisodeFields.updateFeedOrder(db, episodeID: stored.id, feedOrder: order)
                }
            }
            try EpisodeFields.insert(db, podcastID: id, added)
            if !added.isEmpty { try HeldEpisodeActions.apply(db) }
            return RefreshResult(podcast: try PodcastQueries.podcast(db, id: id), added: added.count, updated: updated)
        }
    }

    /// Records a 304 Not Modified: only `lastCheckedAt` and the validators change. A validator the
    /// 304 did not repeat keeps its stored value (servers often omit them on a 304).
    package func markChecked(podcastID: Int64, validators: FeedValidators) throws(PlaybackError) {
        let checkedAt = now()
        let etag = LibraryText.optional(validators.etag, maxLength: LibraryText.headerLength)
        let lastModified = LibraryText.optional(validators.lastModified, maxLength: LibraryText.headerLength)
        try write { db in
            try db.execute(
                sql: """
                    UPDATE podcast SET lastCheckedAt = ?, etag = COALESCE(?, etag), lastModified = COALESCE(?, lastModified)
                    WHERE id = ?
                    """,
                arguments: [checkedAt.timeIntervalSince1970, etag, lastModified, podcastID])
            if db.changesCount == 0 { throw PlaybackError(.notInLibrary, underlying: "no podcast with that id") }
        }
    }

    /// Every podcast, by title (ignoring case, then by id), with its episode and unplayed counts.
    package func podcasts() throws(PlaybackError) -> [PodcastRecord] {
        try read { db in try PodcastQueries.all(db) }
    }

    /// The podcast a listener means by `idOrTitle`: a numeric id, else the exact title ignoring
    /// case, else a unique title prefix. None or several is `.notInLibrary`.
    package func podcast(matching idOrTitle: String) throws(PlaybackError) -> PodcastRecord {
        try read { db in
            let candidates = try Row.fetchAll(db, sql: "SELECT id, title FROM podcast").map { row in
                LibraryLookup.Candidate(id: try row.decode(Int64.self, forColumn: "id"), name: try row.decode(String.self, forColumn: "title"))
            }
            let id = try LibraryLookup.require(LibraryLookup.podcast(idOrTitle, among: candidates), "podcast")
            return try PodcastQueries.podcast(db, id: id)
        }
    }

    /// Unsubscribes: the podcast, its episodes and their positions go (foreign-key cascade).
    package func removePodcast(id: Int64) throws(PlaybackError) {
        try write { db in
            try db.execute(sql: "DELETE FROM podcast WHERE id = ?", arguments: [id])
            if db.changesCount == 0 { throw PlaybackError(.notInLibrary, underlying: "no podcast with that id") }
        }
    }

    /// The podcast's episodes, newest first (by publication date, undated last, then feed order).
    package func episodes(podcastID: Int64) throws(PlaybackError) -> [EpisodeRecord] {
        try read { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM podcast WHERE id = ?)", arguments: [podcastID]) == true else {
                throw PlaybackError(.notInLibrary, underlying: "no podcast with that id")
            }
            return try Row.fetchAll(db, sql: EpisodeQueries.select + " WHERE e.podcastId = ? " + EpisodeQueries.newestFirst, arguments: [podcastID])
                .map(EpisodeRecord.init(row:))
        }
    }

    /// One episode with its position; `.notInLibrary` when there is none with `id`.
    package func episode(id: Int64) throws(PlaybackError) -> EpisodeRecord {
        try read { db in try EpisodeQueries.episode(db, id: id) }
    }
}

/// A podcast's own (feed-given) columns, cleaned.
private struct PodcastHeader {
    var title: String
    var author: String?
    var summary: String?
    var link: String?
    var imageURL: String?
    var etag: String?
    var lastModified: String?
    var persons: String?
    var funding: String?

    init(feed: PodcastFeed, feedURL: URL?, validators: FeedValidators) {
        persons = LibraryJSON.text(feed.persons)
        funding = LibraryJSON.text(feed.funding)
        title = TextSanitizer.singleLine(feed.title)
        if title.isEmpty, let feedURL {
            // A feed without a title still needs a name the listener can type.
            title = TextSanitizer.singleLine(feedURL.host ?? feedURL.absoluteString)
        }
        author = LibraryText.optional(feed.author)
        summary = LibraryText.optional(feed.summary, maxLength: LibraryText.summaryLength)
        link = LibraryValue.url(feed.link)
        imageURL = LibraryValue.url(feed.imageURL)
        etag = LibraryText.optional(validators.etag, maxLength: LibraryText.headerLength)
        lastModified = LibraryText.optional(validators.lastModified, maxLength: LibraryText.headerLength)
    }

    /// title, author, summary, link, imageURL, etag, lastModified, persons, funding.
    var arguments: StatementArguments {
        [title, author, summary, link, imageURL, etag, lastModified, persons, funding]
    }
}

/// The podcast queries shared by the calls above.
enum PodcastQueries {
    static let select = """
        SELECT p.*,
            (SELECT COUNT(*) FROM episode e WHERE e.podcastId = p.id) AS episodeCount,
            (SELECT COUNT(*) FROM episode e LEFT JOIN playbackPosition pp ON pp.episodeId = e.id
                WHERE e.podcastId = p.id AND COALESCE(pp.played, 0) = 0) AS unplayedCount,
            (SELECT COUNT(*) FROM episode e LEFT JOIN playbackPosition pp ON pp.episodeId = e.id
                WHERE e.podcastId = p.id AND COALESCE(pp.played, 0) = 0 AND COALESCE(pp.position, 0) = 0) AS newCount
        FROM podcast p
        """

    static func podcast(_ db: Database, id: Int64) throws -> PodcastRecord {
        guard let row = try Row.fetchOne(db, sql: select + " WHERE p.id = ?", arguments: [id]) else {
            throw PlaybackError(.notInLibrary, underlying: "no podcast with that id")
        }
        return try PodcastRecord(row: row)
    }

    /// Sorted in Swift: SQLite's NOCASE ignores the case of ASCII letters only.
    static func all(_ db: Database) throws -> [PodcastRecord] {
        try Row.fetchAll(db, sql: select).map(PodcastRecord.init(row:)).sorted { lhs, rhs in
            let (left, right) = (LibraryText.key(lhs.title), LibraryText.key(rhs.title))
            return left != right ? left < right : lhs.id < rhs.id
        }
    }
}

/// The episode queries: the feed's columns with the podcast's title and the listener's state.
enum EpisodeQueries {
    /// The player's measured duration wins over the feed's (feeds are often wrong).
    static let select = """
        SELECT e.*, p.title AS podcastTitle, COALESCE(pp.position, 0) AS position, COALESCE(pp.played, 0) AS played,
            COALESCE(pp.duration, e.duration) AS knownDuration,
            dl.state AS downloadState, dl.receivedBytes AS downloadReceived, dl.totalBytes AS downloadTotal
        FROM episode e
        JOIN podcast p ON p.id = e.podcastId
        LEFT JOIN playbackPosition pp ON pp.episodeId = e.id
        LEFT JOIN download dl ON dl.episodeId = e.id
        """

    static let newestFirst = "ORDER BY e.publishedAt IS NULL, e.publishedAt DESC, e.feedOrder, e.id"

    static func episode(_ db: Database, id: Int64) throws -> EpisodeRecord {
        guard let row = try Row.fetchOne(db, sql: select + " WHERE e.id = ?", arguments: [id]) else {
            throw PlaybackError(.notInLibrary, underlying: "no episode with that id")
        }
        return try EpisodeRecord(row: row)
    }

    static func exists(_ db: Database, id: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM episode WHERE id = ?)", arguments: [id]) == true
    }
}
