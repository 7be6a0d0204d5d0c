import Foundation
import GRDB

/// A multi-stage session file saved under a name. The store keeps the file's absolute path and a
/// copy of its JSON (`LibraryStore.sessionJSON(id:)`), so the session still plays when the file
/// has moved. Printed by `--json` list commands.
package struct SessionRecord: Sendable, Equatable, Codable {
    package var id: Int64
    /// Unique in the library, ignoring case.
    package var name: String
    package var path: String
    package var stageCount: Int
    package var addedAt: Date

    package init(id: Int64, name: String, path: String, stageCount: Int, addedAt: Date) {
        self.id = id
        self.name = name
        self.path = path
        self.stageCount = stageCount
        self.addedAt = addedAt
    }
}

extension SessionRecord {
    init(row: Row) throws {
        self.init(
            id: try row.decode(Int64.self, forColumn: "id"),
            name: try row.decode(String.self, forColumn: "name"),
            path: try row.decode(String.self, forColumn: "path"),
            stageCount: try row.decode(Int.self, forColumn: "stageCount"),
            addedAt: try row.requiredDate("addedAt"))
    }
}
