import Foundation
import GRDB
import PlayerCore

/// A title heard on a station, when it began. Printed by `tonearm history --json`.
package struct HeardTitle: Sendable, Equatable, Codable {
    package var id: Int64
    package var station: String
    package var title: String
    package var artist: String?
    package var heardAt: Date
    /// The listener liked this song (it is among the favourites).
    package var liked: Bool

    package init(id: Int64, station: String, title: String, artist: String?, heardAt: Date, liked: Bool = false) {
        self.id = id
        self.station = station
        self.title = title
        self.artist = artist
        self.heardAt = heardAt
        self.liked = liked
    }

    /// "Artist – Title", or the title alone.
    package var song: String { artist.map { "\($0) – \(title)" } ?? title }
}

/// A song the listener liked, with where and when it was heard. Printed and exported by
/// `tonearm favourites`.
package struct FavouriteSong: Sendable, Equatable, Codable {
    package var id: Int64
    package var title: String
    package var artist: String?
    package var station: String?
    package var heardAt: Date?
    package var likedAt: Date

    package init(id: Int64, title: String, artist: String?, station: String?, heardAt: Date?, likedAt: Date) {
        self.id = id
        self.title = title
        self.artist = artist
        self.station = station
        self.heardAt = heardAt
        self.likedAt = likedAt
    }

    package var song: String { artist.map { "\($0) – \(title)" } ?? title }
}

extension HeardTitle {
    init(row: Row) throws {
        self.init(
            id: try row.decode(Int64.self, forColumn: "id"), station: try row.decode(String.self, forColumn: "station"),
            title: try row.decode(String.self, forColumn: "title"), artist: try row.decode(String?.self, forColumn: "artist"),
            heardAt: try row.requiredDate("heardAt"), liked: try row.decode(Bool?.self, forColumn: "liked") ?? false)
    }
}

extension FavouriteSong {
    init(row: Row) throws {
        self.init(
            id: try row.decode(Int64.self, forColumn: "id"), title: try row.decode(String.self, forColumn: "title"),
            artist: try row.decode(String?.self, forColumn: "artist"), station: try row.decode(String?.self, forColumn: "station"),
            heardAt: try row.date("heardAt"),
            likedAt: try row.requiredDate("likedAt"))
    }
}
