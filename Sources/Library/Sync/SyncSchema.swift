import GRDB

/// What podcast sync keeps in the library (migrations v16 and v20).
///
/// - `syncAccount`: the one server this library syncs with (address, user, this device's id) and
///   the server timestamps to ask from next time. No password: that stays in the configuration
///   file or the environment.
/// - What is still to send is kept where it happens, so it survives a crash and waits out a
///   server that is down: a subscription change per feed address (`syncSubscriptionChange`, the
///   last change wins), a download or delete per episode (`syncEpisodeAction`), and for plays the
///   `playbackPosition` row itself, sent while `updatedAt` is newer than `syncedAt`.
/// - Other devices' actions for episodes this library does not have yet (`syncHeldAction`, v20):
///   the latest per episode, kept until the episode appears, never dropped because the server's
///   "since" moved past them; bounded by `SyncSchema.maxHeldActions`.
/// - The devices this library's subscriptions are linked with (`syncAccount.linkedDevices`, v20,
///   a JSON list as the server last said), for `tonearm sync status`.
/// - Triggers fill the queues only while an account is set up, so a library that never syncs
///   keeps nothing for it. Changes that came from the server are taken out of the queues again by
///   the code that applies them (`LibraryStore+Sync`), so nothing echoes back.
enum SyncSchema {
    static func addSync(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE syncAccount (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                server TEXT NOT NULL,
                username TEXT NOT NULL,
                device TEXT NOT NULL,
                deviceRegistered INTEGER NOT NULL DEFAULT 0,
                subscriptionsSince INTEGER NOT NULL DEFAULT 0,
                actionsSince INTEGER NOT NULL DEFAULT 0,
                lastSyncAt REAL
            );
            CREATE TABLE syncSubscriptionChange (
                feedURL TEXT PRIMARY KEY NOT NULL,
                change TEXT NOT NULL CHECK (change IN ('add', 'remove'))
            );
            CREATE TABLE syncEpisodeAction (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                podcastURL TEXT NOT NULL,
                episodeURL TEXT NOT NULL,
                guid TEXT,
                action TEXT NOT NULL CHECK (action IN ('download', 'delete')),
                at REAL NOT NULL
            );
            ALTER TABLE playbackPosition ADD COLUMN syncedAt REAL;
            ALTER TABLE playbackPosition ADD COLUMN syncedPosition REAL;
            ALTER TABLE playbackPosition ADD COLUMN syncedPlayed INTEGER;

            CREATE TRIGGER sync_podcastAdded AFTER INSERT ON podcast WHEN EXISTS (SELECT 1 FROM syncAccount) BEGIN
                INSERT INTO syncSubscriptionChange (feedURL, change) VALUES (new.feedURL, 'add')
                    ON CONFLICT (feedURL) DO UPDATE SET change = 'add';
            END;
            CREATE TRIGGER sync_podcastRemoved AFTER DELETE ON podcast WHEN EXISTS (SELECT 1 FROM syncAccount) BEGIN
                INSERT INTO syncSubscriptionChange (feedURL, change) VALUES (old.feedURL, 'remove')
                    ON CONFLICT (feedURL) DO UPDATE SET change = 'remove';
            END;
            CREATE TRIGGER sync_podcastMoved AFTER UPDATE OF feedURL ON podcast
                WHEN old.feedURL != new.feedURL AND EXISTS (SELECT 1 FROM syncAccount) BEGIN
                INSERT INTO syncSubscriptionChange (feedURL, change) VALUES (old.feedURL, 'remove')
                    ON CONFLICT (feedURL) DO UPDATE SET change = 'remove';
                INSERT INTO syncSubscriptionChange (feedURL, change) VALUES (new.feedURL, 'add')
                    ON CONFLICT (feedURL) DO UPDATE SET change = 'add';
            END;
            CREATE TRIGGER sync_downloaded AFTER UPDATE OF state ON download
                WHEN new.state = 'downloaded' AND old.state != 'downloaded' AND EXISTS (SELECT 1 FROM syncAccount) BEGIN
                INSERT INTO syncEpisodeAction (podcastURL, episodeURL, guid, action, at)
                    SELECT p.feedURL, e.audioURL, e.guid, 'download', new.updatedAt
                    FROM episode e JOIN podcast p ON p.id = e.podcastId WHERE e.id = new.episodeId AND e.audioURL IS NOT NULL;
            END;
            CREATE TRIGGER sync_downloadedAtOnce AFTER INSERT ON download
                WHEN new.state = 'downloaded' AND EXISTS (SELECT 1 FROM syncAccount) BEGIN
                INSERT INTO syncEpisodeAction (podcastURL, episodeURL, guid, action, at)
                    SELECT p.feedURL, e.audioURL, e.guid, 'download', new.updatedAt
                    FROM episode e JOIN podcast p ON p.id = e.podcastId WHERE e.id = new.episodeId AND e.audioURL IS NOT NULL;
            END;
            CREATE TRIGGER sync_downloadDeleted AFTER DELETE ON download
                WHEN old.state = 'downloaded' AND EXISTS (SELECT 1 FROM syncAccount) BEGIN
                INSERT INTO syncEpisodeAction (podcastURL, episodeURL, guid, action, at)
                    SELECT p.feedURL, e.audioURL, e.guid, 'delete', (julianday('now') - 2440587.5) * 86400.0
                    FROM episode e JOIN podcast p ON p.id = e.podcastId WHERE e.id = old.episodeId AND e.audioURL IS NOT NULL;
            END;
            """)
    }

    /// The most held actions kept: a listener's years of history on other devices fit; past it
    /// the oldest go first.
    static let maxHeldActions = 20_000

    static func addHeldActionsAndLinks(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE syncHeldAction (
                key TEXT PRIMARY KEY NOT NULL,
                podcastURL TEXT NOT NULL,
                episodeURL TEXT NOT NULL,
                guid TEXT,
                action TEXT NOT NULL CHECK (action IN ('play', 'new')),
                at REAL NOT NULL,
                started INTEGER,
                position INTEGER,
                total INTEGER,
                receivedAt REAL NOT NULL
            );
            CREATE INDEX syncHeldAction_at ON syncHeldAction (at);
            ALTER TABLE syncAccount ADD COLUMN linkedDevices TEXT NOT NULL DEFAULT '[]';
            """)
    }
}
