import Foundation
import GRDB
import PlayerCore

/// Opening the database file: configure, verify, migrate.
enum LibraryDatabase {
    /// How long a write waits for another Tonearm process (the CLI beside the terminal UI) to
    /// finish its own before giving up with `.libraryUnavailable`.
    static let busyTimeout: TimeInterval = 5

    /// Opens `url` as a WAL-mode pool and migrates it to the latest schema, after checking an
    /// existing file with `PRAGMA quick_check`. Throws `.libraryCorrupt` when the file is not a
    /// database or is damaged (the caller moves it aside), `.libraryUnavailable` when it cannot be
    /// opened or written.
    static func openVerified(at url: URL) throws(PlaybackError) -> DatabasePool {
        if FileManager.default.fileExists(atPath: url.path) {
            try verify(url)
        }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: url.path, configuration: configuration())
        } catch {
            throw LibraryErrorMapping.playbackError(from: error)
        }
        do {
            try LibrarySchema.migrator.migrate(pool)
        } catch {
            try? pool.close()
            throw LibraryErrorMapping.playbackError(from: error)
        }
        return pool
    }

    /// Runs `PRAGMA quick_check` over a read-only connection. Read-only on purpose: a writable
    /// connection to a damaged file checkpoints and deletes its -wal when it closes, destroying
    /// the very bytes the quarantine means to keep. `quick_check` reads every page once
    /// (milliseconds for thousands of episodes): the cheapest check that catches a truncated or
    /// overwritten file at open rather than in the middle of saving a position.
    static func verify(_ url: URL) throws(PlaybackError) {
        var readOnly = configuration()
        readOnly.readonly = true
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: readOnly)
            defer { try? queue.close() }
            try queue.read { db in
                let findings = try String.fetchAll(db, sql: "PRAGMA quick_check")
                guard findings == ["ok"] else {
                    throw PlaybackError(.libraryCorrupt, underlying: "quick_check: " + findings.prefix(3).joined(separator: "; "))
                }
            }
        } catch {
            throw LibraryErrorMapping.playbackError(from: error)
        }
    }

    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "tonearm.library"
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(busyTimeout)
        return configuration
    }
}
