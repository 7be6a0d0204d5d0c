import Foundation
import PlayerCore

/// Moves a damaged database (and its -wal/-shm) aside as `library.sqlite.corrupt-<UTC timestamp>`,
/// so a new library can start while the old bytes stay on disk for inspection or rescue.
/// Renaming (not copying) keeps the main file and its WAL together as one consistent set.
enum CorruptLibraryQuarantine {
    /// The suffixes SQLite gives a database's companion files in WAL mode.
    static let companionSuffixes = ["-wal", "-shm"]

    /// Returns where the main file went.
    static func moveAside(_ databaseURL: URL, at date: Date) throws(PlaybackError) -> URL {
        let fileManager = FileManager.default
        let target = freeName(for: databaseURL, stamp: timestamp(date), fileManager: fileManager)
        do {
            try fileManager.moveItem(at: databaseURL, to: target)
            for suffix in companionSuffixes {
                let companion = URL(fileURLWithPath: databaseURL.path + suffix)
                guard fileManager.fileExists(atPath: companion.path) else { continue }
                try fileManager.moveItem(at: companion, to: URL(fileURLWithPath: target.path + suffix))
            }
        } catch {
            throw PlaybackError(.libraryUnavailable, underlying: "cannot move the damaged library aside")
        }
        return target
    }

    /// `20250102T030405Z`: sortable, and free of `:` (awkward in file names).
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    /// The first of `<name>.corrupt-<stamp>`, `...-2`, `...-3` that no file (or companion) uses,
    /// so a second damage within the same second never overwrites the first.
    private static func freeName(for databaseURL: URL, stamp: String, fileManager: FileManager) -> URL {
        let base = databaseURL.path + ".corrupt-" + stamp
        var candidate = base
        var attempt = 1
        while ([""] + companionSuffixes).contains(where: { fileManager.fileExists(atPath: candidate + $0) }) {
            attempt += 1
            candidate = "\(base)-\(attempt)"
        }
        return URL(fileURLWithPath: candidate)
    }
}
