import Foundation
import GRDB
import PlayerCore

/// An internet radio station saved by the listener. Printed by `--json` list commands.
package struct StationRecord: Sendable, Equatable, Codable {
    package var id: Int64
    /// Unique in the library, ignoring case.
    package var name: String
    package var url: URL
    package var genre: String?
    package var addedAt: Date
    /// The station directory's id when it was added from there (its plays are counted there).
    package var directoryID: String?

    package init(id: Int64, name: String, url: URL, genre: String? = nil, addedAt: Date, directoryID: String? = nil) {
        self.id = id
        self.name = name
        self.url = url
        self.genre = genre
        self.addedAt = addedAt
        self.directoryID = directoryID
    }

    /// The station as the player knows it.
    package var station: Station {
        Station(id: String(id), name: name, url: url, genre: genre)
    }
}

extension StationRecord {
    init(row: Row) throws {
        self.init(
            id: try row.decode(Int64.self, forColumn: "id"),
            name: try row.decode(String.self, forColumn: "name"),
            url: try row.requiredURL("url"),
            genre: try row.decode(String?.self, forColumn: "genre"),
            addedAt: try row.requiredDate("addedAt"),
            directoryID: try row.decode(String?.self, forColumn: "directoryID"))
    }
}
