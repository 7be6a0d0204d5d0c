import Foundation
import GRDB
import PlayerCore

/// Turns what GRDB and SQLite throw into Tonearm's typed errors.
///
/// The log text is GRDB's description (result code, message and SQL); GRDB leaves statement
/// arguments out of it by default, so no title, URL or path of the user reaches a log.
enum LibraryErrorMapping {
    static func playbackError(from error: any Error) -> PlaybackError {
        if let typed = error as? PlaybackError { return typed }
        // Its description quotes the whole row (titles, URLs), so only the fact goes to the log.
        if error is RowDecodingError { return PlaybackError(.malformedData, underlying: "a library row does not match the schema") }
        guard let database = error as? DatabaseError else { return PlaybackError.from(error) }
        let log = String(describing: database)
        switch database.resultCode {
        case .SQLITE_CONSTRAINT where database.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
            || database.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY:
            return PlaybackError(.alreadyInLibrary, underlying: log)
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return PlaybackError(.libraryCorrupt, underlying: log)
        case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_PERM, .SQLITE_BUSY,
            .SQLITE_LOCKED, .SQLITE_NOLFS, .SQLITE_AUTH:
            return PlaybackError(.libraryUnavailable, underlying: log)
        default:
            return PlaybackError(.unknown, underlying: log)
        }
    }
}
