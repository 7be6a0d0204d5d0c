import Foundation
import GRDB
import PlayerCore

/// The user's library on disk: stations, podcasts and their episodes, where the listener stopped,
/// sessions, settings and error analytics, in one SQLite file under the XDG data directory.
///
/// Why it is built this way:
/// - GRDB's `DatabasePool` (WAL mode, `synchronous = NORMAL`): readers never wait for the writer,
///   and a committed transaction survives the process being killed (only a power cut may lose
///   the last one), so a saved position is never lost to a `kill -9`.
/// - Every call is synchronous and throws a typed `PlaybackError`: the CLI calls it directly, and
///   a failing disk becomes `.libraryUnavailable`, never a crash.
/// - Opening never leaves the listener stuck: a damaged file is kept aside (not deleted, so it can
///   be inspected or rescued) and a new library starts; `recovery` says so.
/// - Every text is sanitised on the way in, even from the feed parser, because CLI arguments reach
///   the same calls.
package final class LibraryStore: Sendable {
    /// The database file's name inside the data directory.
    package static let fileName = "library.sqlite"

    /// Where the database lives.
    package let databaseURL: URL
    /// Set when the file found at open was damaged and a new one was made.
    package let recovery: LibraryRecovery?
    /// The persistent store for `ErrorAnalytics`, in the same database.
    package let errorEvents: SQLiteErrorEventStore
    /// The persistent totals of `RetryStatistics`, in the same database.
    package let retryStatistics: SQLiteRetryStatisticsStore

    let pool: DatabasePool
    let now: @Sendable () -> Date

    private init(pool: DatabasePool, databaseURL: URL, recovery: LibraryRecovery?, now: @escaping @Sendable () -> Date) {
        self.pool = pool
        self.databaseURL = databaseURL
        self.recovery = recovery
        self.now = now
        self.errorEvents = SQLiteErrorEventStore(pool: pool)
        self.retryStatistics = SQLiteRetryStatisticsStore(pool: pool)
    }

    /// Opens (creating the directory and file) and migrates. A file that is not a database or fails
    /// `PRAGMA quick_check` is moved aside (`library.sqlite.corrupt-<UTC timestamp>` with its
    /// -wal/-shm), a new one is made, and `recovery` says so. An unwritable directory or file is
    /// `.libraryUnavailable`.
    package static func open(
        directory: URL = LibraryPaths.dataDirectory(),
        now: @escaping @Sendable () -> Date = Date.init
    ) throws(PlaybackError) -> LibraryStore {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            // The path is left out of the log text: it names the user's home.
            throw PlaybackError(.libraryUnavailable, underlying: "cannot create the library directory")
        }
        let url = directory.appendingPathComponent(fileName, isDirectory: false)
        do {
            let pool = try LibraryDatabase.openVerified(at: url)
            return LibraryStore(pool: pool, databaseURL: url, recovery: nil, now: now)
        } catch let error where error.code == .libraryCorrupt {
            let movedAside = try CorruptLibraryQuarantine.moveAside(url, at: now())
            let pool = try LibraryDatabase.openVerified(at: url)
            let recovery = LibraryRecovery(movedAsideTo: movedAside, error: error)
            return LibraryStore(pool: pool, databaseURL: url, recovery: recovery, now: now)
        }
    }

    /// Runs `body` in one write transaction; any failure becomes a typed error.
    func write<T>(_ body: (Database) throws -> T) throws(PlaybackError) -> T {
        do {
            return try pool.write(body)
        } catch {
            throw LibraryErrorMapping.playbackError(from: error)
        }
    }

    /// Runs `body` in one read transaction (a consistent snapshot); failures become typed errors.
    func read<T>(_ body: (Database) throws -> T) throws(PlaybackError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw LibraryErrorMapping.playbackError(from: error)
        }
    }
}
