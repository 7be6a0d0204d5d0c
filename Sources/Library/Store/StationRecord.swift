import Foundation
import GRDB
import PlayerCore

/// An internet radio station saved by the listener. Printed by `--json` list commands.
public struct StationRecord: Sendable, Equatable, Codable {
    public var id: Int64
    /// Unique in the library, ignoring case.
    public var name: String
    public var url: URL
    public var genre: String?
    public var addedAt: Date
    /// The station directory's id when it was added from there (its plays are counted there).
    public var directoryID: String?

    public init(id: Int64, name: String, url: URL, genre: String? = nil, addedAt: Date, directoryID: String? = nil) {
        self.id = id
        self.name = name
        self.url = url
        self.genre = genre
        self.addedAt = addedAt
        self.directoryID = directoryID
    }

    /// The station as the player knows it.
    public var station: Station {
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
