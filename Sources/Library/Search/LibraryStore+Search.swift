import Foundation
import GRDB
import PlayerCore

/// Full-text search over the library (see `LibrarySearchSchema` for the index).
extension LibraryStore {
    /// Hits for `text`, best first: titles (podcasts', then episodes'), then a podcast's author and
    /// description and an episode's notes, then transcript lines (of the episodes added last when
    /// a word is said in very many); within each, by FTS5's bm25 rank. At most `limit` hits, of
    /// which at most `linesPerEpisode` lines of one transcript (a word said fifty times in one
    /// episode must not hide every other episode). Text without a word finds nothing.
    package func search(_ text: String, limit: Int = 50, linesPerEpisode: Int = 3) throws(PlaybackError) -> [LibrarySearchHit] {
        guard let query = SearchQuery(text), limit > 0 else { return [] }
        return try read { db in
            var hits = try SearchQueries.podcasts(db, matching: query.only("title"), as: .podcastTitle, limit: limit)
            hits += try SearchQueries.episodes(db, matching: query.only("title"), as: .episodeTitle, limit: limit - hits.count)
            var seenPodcasts = Set(hits.map(\.podcastID))
            let seenEpisodes = Set(hits.compactMap(\.episodeID))
            if hits.count < limit {
                let details = try SearchQueries.podcasts(db, matching: query.only("author", "summary"), as: .podcastDetails, limit: limit)
                hits += details.filter { seenPodcasts.insert($0.podcastID).inserted }.prefix(limit - hits.count)
            }
            if hits.count < limit {
                let notes = try SearchQueries.episodes(db, matching: query.only("summary"), as: .episodeNotes, limit: limit)
                hits += notes.filter { !seenEpisodes.contains($0.episodeID ?? -1) }.prefix(limit - hits.count)
            }
            if hits.count < limit {
                // Lines with the words whole first (cheap even for a word said everywhere), then
                // lines where they begin longer words.
                var lines = try SearchQueries.lines(db, matching: query.only("text", whole: true), limit: limit - hits.count, perEpisode: linesPerEpisode)
                if lines.count < limit - hits.count, query.exactExpression != query.expression {
                    let whole = Set(lines.map(\.rowID))
                    let more = try SearchQueries.lines(db, matching: query.only("text"), limit: limit - hits.count, perEpisode: linesPerEpisode)
                    lines += more.filter { !whole.contains($0.rowID) }
                }
                hits += SearchQueries.perEpisode(lines, limit: limit - hits.count, perEpisode: linesPerEpisode).map(\.hit)
            }
            return hits
        }
    }
}

/// The SQL of each kind of hit.
enum SearchQueries {
    /// The most transcript lines ranked for one search: the matching lines of the episodes added
    /// last (FTS5 walks its index in rowid order and stops there), then ranked by bm25. Ranking every
    /// line of a word said in every episode (400,000 lines in a 10,000-episode library) takes
    /// about 200 ms; these take a few.
    static let maxRankedLines = 1_000

    static func podcasts(_ db: Database, matching expression: String, as match: LibrarySearchHit.Match, limit: Int) throws
        -> [LibrarySearchHit]
    {
        guard limit > 0 else { return [] }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT p.id, p.title, snippet(podcastSearch, -1, '', '', '…', 16) AS excerpt
                FROM podcastSearch JOIN podcast p ON p.id = podcastSearch.rowid
                WHERE podcastSearch MATCH ? ORDER BY bm25(podcastSearch, 10.0, 2.0, 1.0) LIMIT ?
                """,
            arguments: [expression, limit])
        return try rows.map { row in
            let title: String = try row.decode(String.self, forColumn: "title")
            return LibrarySearchHit(
                match: match, podcastID: try row.decode(Int64.self, forColumn: "id"), podcastTitle: title,
                text: match == .podcastTitle ? title : try row.decode(String.self, forColumn: "excerpt"))
        }
    }

    static func episodes(_ db: Database, matching expression: String, as match: LibrarySearchHit.Match, limit: Int) throws
        -> [LibrarySearchHit]
    {
        guard limit > 0 else { return [] }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT e.id, e.title, e.podcastId, p.title AS podcastTitle, snippet(episodeSearch, 1, '', '', '…', 16) AS excerpt
                FROM episodeSearch JOIN episode e ON e.id = episodeSearch.rowid JOIN podcast p ON p.id = e.podcastId
                WHERE episodeSearch MATCH ? ORDER BY bm25(episodeSearch, 10.0, 1.0) LIMIT ?
                """,
            arguments: [expression, limit])
        return try rows.map { row in
            let title: String = try row.decode(String.self, forColumn: "title")
            return LibrarySearchHit(
                match: match, podcastID: try row.decode(Int64.self, forColumn: "podcastId"),
                podcastTitle: try row.decode(String.self, forColumn: "podcastTitle"), episodeID: try row.decode(Int64.self, forColumn: "id"),
                episodeTitle: title, text: match == .episodeTitle ? title : try row.decode(String.self, forColumn: "excerpt"))
        }
    }

    /// Matching lines, best first, with their FTS rowids (to merge the whole-word and prefix passes).
    static func lines(_ db: Database, matching expression: String, limit: Int, perEpisode: Int) throws -> [(rowID: Int64, hit: LibrarySearchHit)] {
        guard limit > 0, perEpisode > 0 else { return [] }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT c.rowid, c.episodeId, c.start, c.text, c.speaker, e.title AS episodeTitle, e.podcastId, p.title AS podcastTitle
                FROM (SELECT rowid, episodeId, start, text, speaker, bm25(cueSearch) AS score FROM cueSearch WHERE cueSearch MATCH ?
                    ORDER BY rowid DESC LIMIT ?) AS c
                JOIN episode e ON e.id = c.episodeId JOIN podcast p ON p.id = e.podcastId
                ORDER BY c.score, c.episodeId DESC
                """,
            arguments: [expression, maxRankedLines])
        var lines: [(rowID: Int64, hit: LibrarySearchHit)] = []
        var perEpisodeCount: [Int64: Int] = [:]
        while lines.count < limit, let row = try rows.next() {
            let episodeID: Int64 = try row.decode(Int64.self, forColumn: "episodeId")
            guard perEpisodeCount[episodeID, default: 0] < perEpisode else { continue }
            perEpisodeCount[episodeID, default: 0] += 1
            let hit = LibrarySearchHit(
                match: .transcript, podcastID: try row.decode(Int64.self, forColumn: "podcastId"),
                podcastTitle: try row.decode(String.self, forColumn: "podcastTitle"), episodeID: episodeID,
                episodeTitle: try row.decode(String.self, forColumn: "episodeTitle"),
                time: try row.decode(Double?.self, forColumn: "start"), text: try row.decode(String.self, forColumn: "text"),
                speaker: try row.decode(String?.self, forColumn: "speaker"))
            lines.append((try row.decode(Int64.self, forColumn: "rowid"), hit))
        }
        return lines
    }

    /// At most `perEpisode` lines of one episode, `limit` in all, in order.
    static func perEpisode(_ lines: [(rowID: Int64, hit: LibrarySearchHit)], limit: Int, perEpisode: Int) -> [(rowID: Int64, hit: LibrarySearchHit)] {
        var counts: [Int64: Int] = [:]
        return Array(lines.filter { line in
            let episode = line.hit.episodeID ?? 0
            counts[episode, default: 0] += 1
            return counts[episode]! <= perEpisode
        }.prefix(limit))
    }
}
