import Foundation
import GRDB
import PlayerCore

/// Opening the database file: configure, verify, migrate.
enum LibraryDatabase {
    /// How long a write waits for another Tonearm process (the CLI beside the terminal UI) to
    /// finish its own before giving up with `.libraryUnavailable`.
    static let busyTimeout: TimeInterval = 5

    /// Opens `url` as a WAL-mode pool, runs `PRAGMA quick_check` and migrates to the latest schema.
    /// Throws `.libraryCorrupt` when the file is not a database or is damaged (the caller moves it
    /// aside), `.libraryUnavailable` when it cannot be opened or written.
    ///
    /// `quick_check` reads every page once (milliseconds for a library of thousands of episodes);
    /// it is the cheapest check that catches a truncated or overwritten file at open rather than
    /// in the middle of saving a position.
    static func openVerified(at url: URL) throws(PlaybackError) -> DatabasePool {
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: url.path, configuration: configuration())
        } catch {
            throw LibraryErrorMapping.playbackError(from: error)
        }
        do {
            try pool.read { db in
                let findings = try String.fetchAll(db, sql: "PRAGMA quick_check")
                guard findings == ["ok"] else {
                    throw PlaybackError(.libraryCorrupt, underlying: "quick_check: " + findings.prefix(3).joined(separator: "; "))
                }
            }
            try LibrarySchema.migrator.migrate(pool)
        } catch {
            try? pool.close()
            throw LibraryErrorMapping.playbackError(from: error)
        }
        return pool
    }

    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "tonearm.library"
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(busyTimeout)
        return configuration
    }
}
