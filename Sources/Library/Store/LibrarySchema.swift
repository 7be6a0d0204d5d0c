import Foundation
import GRDB

/// The library's tables and their migrations. Never edit a registered migration: add a new one,
/// so every file ever written by a released Tonearm upgrades in place.
///
/// Conventions: dates are REAL seconds since 1970 (exact round trips, numeric ordering); error
/// event timestamps are INTEGER seconds (events are whole seconds); URLs are their absolute
/// strings; booleans are 0/1. Names that must be unique ignoring case have a `nameKey` column
/// (the lowercased name): SQLite's NOCASE folds ASCII only, and station names are often not ASCII.
enum LibrarySchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", migrate: createLibrary)
        migrator.registerMigration("v2", migrate: addAnalyticsAndFeedValidators)
        migrator.registerMigration("v3", migrate: addRetryStatistics)
        migrator.registerMigration("v4", migrate: addTrimmedSilence)
        migrator.registerMigration("v5", migrate: addLoudness)
        migrator.registerMigration("v6", migrate: addStationDirectoryID)
        migrator.registerMigration("v7", migrate: addHistoryAndFavourites)
        migrator.registerMigration("v8", migrate: addDownloads)
        migrator.registerMigration("v9", migrate: addPodcastGUID)
        migrator.registerMigration("v10", migrate: addQueue)
        migrator.registerMigration("v11", migrate: addTranscripts)
        migrator.registerMigration("v12", migrate: LibrarySearchSchema.addSearch)
        migrator.registerMigration("v13", migrate: addCredits)
        migrator.registerMigration("v14", migrate: addSoundbites)
        migrator.registerMigration("v15", migrate: addInlineChapters)
        migrator.registerMigration("v16", migrate: SyncSchema.addSync)
        migrator.registerMigration("v17", migrate: addAlternateEnclosures)
        migrator.registerMigration("v18", migrate: addLiveStatus)
        migrator.registerMigration("v19", migrate: ReachabilitySchema.addReachability)
        migrator.registerMigration("v20", migrate: SyncSchema.addHeldActionsAndLinks)
        migrator.registerMigration("v21", migrate: MusicSchema.addMusic)
        migrator.registerMigration("v22", migrate: StickerSchema.addStickers)
        return migrator
    }

    /// Stations, podcasts, episodes, playback positions, sessions, settings.
    private static func createLibrary(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE station (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL,
                nameKey TEXT NOT NULL UNIQUE,
                url TEXT NOT NULL,
                genre TEXT,
                addedAt REAL NOT NULL
            );
            CREATE TABLE podcast (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                title TEXT NOT NULL,
                author TEXT,
                summary TEXT,
                feedURL TEXT NOT NULL UNIQUE,
                link TEXT,
                imageURL TEXT,
                addedAt REAL NOT NULL,
                lastCheckedAt REAL
            );
            CREATE TABLE episode (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                podcastId INTEGER NOT NULL REFERENCES podcast(id) ON DELETE CASCADE,
                guid TEXT NOT NULL,
                title TEXT NOT NULL,
                summary TEXT,
                publishedAt REAL,
                duration REAL,
                audioURL TEXT,
                audioLength INTEGER,
                audioType TEXT,
                chaptersURL TEXT,
                feedOrder INTEGER NOT NULL,
                UNIQUE (podcastId, guid)
            );
            CREATE INDEX episode_byPodcastAndDate ON episode(podcastId, publishedAt DESC, feedOrder);
            CREATE TABLE playbackPosition (
                episodeId INTEGER PRIMARY KEY REFERENCES episode(id) ON DELETE CASCADE,
                position REAL NOT NULL,
                duration REAL,
                played INTEGER NOT NULL DEFAULT 0,
                updatedAt REAL NOT NULL
            );
            CREATE TABLE session (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL,
                nameKey TEXT NOT NULL UNIQUE,
                path TEXT NOT NULL,
                json TEXT NOT NULL,
                stageCount INTEGER NOT NULL,
                addedAt REAL NOT NULL
            );
            CREATE TABLE setting (
                key TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            );
            """)
    }

    /// Error analytics events (exactly `ErrorEvent`'s fields) and the podcasts' HTTP validators
    /// for conditional feed requests. The second events index covers the summary's GROUP BY, so
    /// summarising 100,000 events is an index scan without a sort (about 50 ms even in debug).
    private static func addAnalyticsAndFeedValidators(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE errorEvent (
                id TEXT NOT NULL UNIQUE,
                timestamp INTEGER NOT NULL,
                errorType TEXT NOT NULL,
                operation TEXT NOT NULL,
                userAction TEXT,
                isRetryable INTEGER NOT NULL,
                resolution TEXT NOT NULL
            );
            CREATE INDEX errorEvent_byTimestamp ON errorEvent(timestamp);
            CREATE INDEX errorEvent_bySummaryGroup ON errorEvent(errorType, operation, isRetryable, resolution, timestamp);
            ALTER TABLE podcast ADD COLUMN etag TEXT;
            ALTER TABLE podcast ADD COLUMN lastModified TEXT;
            """)
    }

    /// Retry totals per operation (exactly `RetryStatistics.Snapshot`'s counters), added to after
    /// every retried network operation, so `tonearm errors` and Diagnostics show how retries fare
    /// across runs. The key is an operation name (`AnalyticsIdentifier`), never a URL or host.
    private static func addRetryStatistics(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE retryStatistic (
                operation TEXT PRIMARY KEY NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                firstTrySuccesses INTEGER NOT NULL DEFAULT 0,
                successesAfterRetry INTEGER NOT NULL DEFAULT 0,
                failures INTEGER NOT NULL DEFAULT 0,
                failuresAfterRetry INTEGER NOT NULL DEFAULT 0,
                cancellations INTEGER NOT NULL DEFAULT 0
            );
            """)
    }

    /// The silence trimming left out of each episode, media seconds, added up over every play.
    private static func addTrimmedSilence(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE trimmedSilence (
                episodeId INTEGER PRIMARY KEY NOT NULL REFERENCES episode(id) ON DELETE CASCADE,
                seconds REAL NOT NULL DEFAULT 0
            );
            """)
    }

    /// Measured loudness, by source: a file as `file:` + path, size and modification time (a
    /// changed file is measured again), an episode as its enclosure URL.
    private static func addLoudness(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE loudness (
                sourceKey TEXT PRIMARY KEY NOT NULL,
                integrated REAL NOT NULL,
                source TEXT NOT NULL,
                measuredAt REAL NOT NULL
            );
            """)
    }

    /// The station directory's id of a station added from it, so playing it counts a click there.
    private static func addStationDirectoryID(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE station ADD COLUMN directoryID TEXT")
    }

    /// Titles heard on stations (newest kept per station), and the ones the listener liked.
    /// `songKey` is the lowercased "artist\u{1F}title", computed in Swift (SQLite's `lower` folds
    /// ASCII only): one favourite per song however it was written, and a heard title finds its like.
    private static func addHistoryAndFavourites(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE heardTitle (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                station TEXT NOT NULL,
                stationKey TEXT NOT NULL,
                title TEXT NOT NULL,
                artist TEXT,
                songKey TEXT NOT NULL,
                heardAt REAL NOT NULL
            );
            CREATE INDEX heardTitleByStation ON heardTitle (stationKey, heardAt);
            CREATE INDEX heardTitleByTime ON heardTitle (heardAt);
            CREATE TABLE favourite (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                songKey TEXT NOT NULL UNIQUE,
                title TEXT NOT NULL,
                artist TEXT,
                station TEXT,
                heardAt REAL,
                likedAt REAL NOT NULL
            );
            """)
    }

    /// Episodes kept on disk (one row per episode: its file's hashed name, where the download
    /// stands, the validators of the server's file the bytes belong to) and the podcasts whose new
    /// episodes are downloaded by themselves, with how many of the newest to keep.
    private static func addDownloads(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE download (
                episodeId INTEGER PRIMARY KEY NOT NULL REFERENCES episode(id) ON DELETE CASCADE,
                fileName TEXT NOT NULL,
                state TEXT NOT NULL,
                receivedBytes INTEGER NOT NULL DEFAULT 0,
                totalBytes INTEGER,
                etag TEXT,
                lastModified TEXT,
                errorCode INTEGER,
                updatedAt REAL NOT NULL,
                completedAt REAL
            );
            CREATE TABLE podcastAutoDownload (
                podcastId INTEGER PRIMARY KEY NOT NULL REFERENCES podcast(id) ON DELETE CASCADE,
                keepLatest INTEGER NOT NULL
            );
            """)
    }

    /// A podcast's Podcasting 2.0 identity (`podcast:guid`), so a feed that moved is known as the
    /// podcast already subscribed. Indexed but not UNIQUE: libraries written before it may hold one
    /// podcast twice, and a refresh that finds that out must not fail.
    private static func addPodcastGUID(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE podcast ADD COLUMN podcastGUID TEXT;
            CREATE INDEX podcast_byGUID ON podcast(podcastGUID);
            """)
    }

    /// The listener's "up next" queue: entries in `position` order, each one episode, station or
    /// session (exactly one of the three), each at most once; an entry goes with what it names.
    private static func addQueue(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE queueEntry (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                position INTEGER NOT NULL,
                episodeId INTEGER UNIQUE REFERENCES episode(id) ON DELETE CASCADE,
                stationId INTEGER UNIQUE REFERENCES station(id) ON DELETE CASCADE,
                sessionId INTEGER UNIQUE REFERENCES session(id) ON DELETE CASCADE,
                addedAt REAL NOT NULL,
                CHECK ((episodeId IS NOT NULL) + (stationId IS NOT NULL) + (sessionId IS NOT NULL) = 1)
            );
            CREATE INDEX queueEntry_byPosition ON queueEntry(position);
            """)
    }

    /// An episode's season, number and people, a podcast's people and support links, as the feed
    /// names them (`podcast:` and `itunes:` tags); lists as JSON arrays.
    private static func addCredits(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE episode ADD COLUMN season INTEGER;
            ALTER TABLE episode ADD COLUMN episodeNumber REAL;
            ALTER TABLE episode ADD COLUMN persons TEXT;
            ALTER TABLE podcast ADD COLUMN persons TEXT;
            ALTER TABLE podcast ADD COLUMN funding TEXT;
            """)
    }

    /// An episode's chapters written into its feed (Podlove Simple Chapters), as a JSON array.
    private static func addInlineChapters(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE episode ADD COLUMN inlineChapters TEXT")
    }

    /// Where a live episode's broadcast stands (`podcast:liveItem`), as JSON; NULL for the others.
    private static func addLiveStatus(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE episode ADD COLUMN live TEXT")
    }

    /// An episode's other files (`podcast:alternateEnclosure`), as a JSON array.
    private static func addAlternateEnclosures(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE episode ADD COLUMN alternates TEXT")
    }

    /// An episode's soundbites (`podcast:soundbite`), as a JSON array.
    private static func addSoundbites(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE episode ADD COLUMN soundbites TEXT")
    }

    /// The transcript a feed names for each episode, and the transcripts fetched: kept with the
    /// episode (gone with it), their cues as the JSON of `Transcript`.
    private static func addTranscripts(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE episode ADD COLUMN transcriptURL TEXT;
            ALTER TABLE episode ADD COLUMN transcriptType TEXT;
            CREATE TABLE transcript (
                episodeId INTEGER PRIMARY KEY REFERENCES episode(id) ON DELETE CASCADE,
                url TEXT NOT NULL,
                format TEXT NOT NULL,
                cues TEXT NOT NULL,
                fetchedAt REAL NOT NULL
            );
            """)
    }
}
