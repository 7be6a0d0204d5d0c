import Foundation
import GRDB
import PlayerCore

/// An episode's feed-given columns, cleaned: what a refresh compares to decide "updated", and
/// what it writes. The listener's state (position, played) lives apart, in `playbackPosition`,
/// so no refresh can touch it.
struct EpisodeFields: Equatable {
    var guid: String
    var title: String
    var summary: String?
    var publishedAt: Double?
    var duration: Double?
    var audioURL: String?
    var audioLength: Int64?
    var audioType: String?
    var chaptersURL: String?
    var transcriptURL: String?
    var transcriptType: String?
    var season: Int?
    var episodeNumber: Double?
    /// JSON of `[FeedPerson]`; nil for none.
    var persons: String?
    /// JSON of `[Soundbite]`; nil for none.
    var soundbites: String?
    /// JSON of `[Chapter]`; nil for none.
    var inlineChapters: String?
    /// JSON of `[AlternateEnclosure]`; nil for none.
    var alternates: String?
    /// JSON of `LiveStatus`; nil for an episode that is not a live one.
    var live: String?

    init(_ episode: FeedEpisode) {
        season = episode.season
        episodeNumber = episode.episodeNumber.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        persons = LibraryJSON.text(episode.persons)
        soundbites = LibraryJSON.text(episode.soundbites)
        inlineChapters = LibraryJSON.text(episode.inlineChapters)
        alternates = LibraryJSON.text(episode.alternates)
        live = episode.live.flatMap(LibraryJSON.value)
        title = TextSanitizer.singleLine(episode.title)
        summary = LibraryText.optional(episode.summary, maxLength: LibraryText.summaryLength)
        publishedAt = LibraryValue.date(episode.publishedAt)
        duration = episode.duration.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        audioURL = LibraryValue.url(episode.enclosure?.url)
        audioLength = episode.enclosure?.length.flatMap { $0 >= 0 ? $0 : nil }
        audioType = LibraryText.optional(episode.enclosure?.type, maxLength: LibraryText.headerLength)
        chaptersURL = LibraryValue.url(episode.chaptersURL)
        transcriptURL = LibraryValue.url(episode.transcript?.url)
        transcriptType = transcriptURL == nil ? nil : episode.transcript?.format.rawValue
        // The parser always gives a guid; should one clean to nothing, the audio URL (else the
        // title and date) is the next most stable identity, as in `FeedEpisode.guid`'s rule.
        guid = TextSanitizer.singleLine(episode.guid, maxLength: LibraryText.guidLength)
        if guid.isEmpty {
            guid = audioURL ?? "\(title)|\(publishedAt.map { String($0) } ?? "")"
        }
    }

    init(row: Row) throws {
        guid = try row.decode(String.self, forColumn: "guid")
        title = try row.decode(String.self, forColumn: "title")
        summary = try row.decode(String?.self, forColumn: "summary")
        publishedAt = try row.decode(Double?.self, forColumn: "publishedAt")
        duration = try row.decode(Double?.self, forColumn: "duration")
        audioURL = try row.decode(String?.self, forColumn: "audioURL")
        audioLength = try row.decode(Int64?.self, forColumn: "audioLength")
        audioType = try row.decode(String?.self, forColumn: "audioType")
        chaptersURL = try row.decode(String?.self, forColumn: "chaptersURL")
        transcriptURL = try row.decode(String?.self, forColumn: "transcriptURL")
        transcriptType = try row.decode(String?.self, forColumn: "transcriptType")
        season = try row.decode(Int?.self, forColumn: "season")
        episodeNumber = try row.decode(Double?.self, forColumn: "episodeNumber")
        persons = try row.decode(String?.self, forColumn: "persons")
        soundbites = try row.decode(String?.self, forColumn: "soundbites")
        inlineChapters = try row.decode(String?.self, forColumn: "inlineChapters")
        alternates = try row.decode(String?.self, forColumn: "alternates")
        live = try row.decode(String?.self, forColumn: "live")
    }

    /// The feed's episodes in order, each guid once (the first occurrence wins: feeds do repeat
    /// items, and the schema keeps one episode per guid).
    static func unique(_ episodes: [FeedEpisode]) -> [EpisodeFields] {
        var seen = Set<String>()
        return episodes.map(EpisodeFields.init).filter { seen.insert($0.guid).inserted }
    }

    /// The column list the statements below bind, in order.
    static let columns = """
        guid, title, summary, publishedAt, duration, audioURL, audioLength, audioType, chaptersURL, transcriptURL, transcriptType, \
        season, episodeNumber, persons, soundbites, inlineChapters, alternates, live
        """

    var arguments: StatementArguments {
        [
            guid, title, summary, publishedAt, duration, audioURL, audioLength, audioType, chaptersURL, transcriptURL, transcriptType,
            season, episodeNumber, persons, soundbites, inlineChapters, alternates, live,
        ]
    }

    /// Inserts `episodes` of podcast `podcastID`, each with its place in the feed, many rows per
    /// statement. A statement per row would cost a full-text index write per row: SQLite opens a
    /// savepoint for each statement that fires a trigger, and FTS5 writes its pending terms to
    /// disk at every savepoint (5,000 single-row inserts took 300 ms that way, most of a feed's import).
    static func insert(_ db: Database, podcastID: Int64, _ episodes: [(fields: EpisodeFields, feedOrder: Int)]) throws {
        for start in stride(from: 0, to: episodes.count, by: rowsPerInsert) {
            let rows = episodes[start..<min(start + rowsPerInsert, episodes.count)]
            let statement = try db.cachedStatement(sql: """
                INSERT INTO episode (podcastId, feedOrder, \(columns)) VALUES \(Array(repeating: rowPlaceholders, count: rows.count).joined(separator: ", "))
                """)
            var arguments = StatementArguments()
            for row in rows {
                arguments += [podcastID, row.feedOrder]
                arguments += row.fields.arguments
            }
            try statement.execute(arguments: arguments)
        }
    }

    /// Rows per insert statement: 20 values each stays far below SQLite's 32,766 bound values.
    private static let rowsPerInsert = 500
    /// `(?, ?, ...)` for `podcastId`, `feedOrder` and `columns`.
    private static let rowPlaceholders = "(" + Array(repeating: "?", count: 20).joined(separator: ", ") + ")"

    func update(_ db: Database, episodeID: Int64, feedOrder: Int) throws {
        let statement = try db.cachedStatement(sql: """
            UPDATE episode SET feedOrder = ?, guid = ?, title = ?, summary = ?, publishedAt = ?, duration = ?,
                audioURL = ?, audioLength = ?, audioType = ?, chaptersURL = ?, transcriptURL = ?, transcriptType = ?,
                season = ?, episodeNumber = ?, persons = ?, soundbites = ?, inlineChapters = ?, alternates = ?, live = ?
            WHERE id = ?
            """)
        try statement.execute(arguments: [feedOrder] + arguments + [episodeID])
    }

    static func updateFeedOrder(_ db: Database, episodeID: Int64, feedOrder: Int) throws {
        let statement = try db.cachedStatement(sql: "UPDATE episode SET feedOrder = ? WHERE id = ?")
        try statement.execute(arguments: [feedOrder, episodeID])
    }
}
