import Foundation
import GRDB
import PlayerCore

/// Reading the schema's conventions back (see `LibrarySchema`): REAL dates and TEXT URLs.
/// Every read throws rather than traps, so an edited or damaged row is an error, never a crash.
extension Row {
    func date(_ column: String) throws -> Date? {
        try decode(Double?.self, forColumn: column).map(Date.init(timeIntervalSince1970:))
    }

    func requiredDate(_ column: String) throws -> Date {
        Date(timeIntervalSince1970: try decode(Double.self, forColumn: column))
    }

    func url(_ column: String) throws -> URL? {
        try decode(String?.self, forColumn: column).flatMap { URL(string: $0) }
    }

    func requiredURL(_ column: String) throws -> URL {
        guard let url = try url(column) else {
            throw PlaybackError(.malformedData, underlying: "library column \(column) holds no valid URL")
        }
        return url
    }
}

/// The values the schema stores for Swift ones.
enum LibraryValue {
    static func date(_ date: Date?) -> Double? { date?.timeIntervalSince1970 }
    static func url(_ url: URL?) -> String? { url?.absoluteString }
}
