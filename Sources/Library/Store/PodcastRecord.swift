import Foundation
import GRDB

/// A podcast in the library, with counts for list screens. Printed by `--json` list commands, so
/// its property names are the JSON keys.
package struct PodcastRecord: Sendable, Equatable, Codable {
    package var id: Int64
    package var title: String
    package var author: String?
    package var summary: String?
    package var feedURL: URL
    /// The podcast's web page.
    package var link: URL?
    package var imageURL: URL?
    package var etag: String?
    package var lastModified: String?
    package var addedAt: Date
    /// When the feed was last fetched successfully (200 or 304).
    package var lastCheckedAt: Date?
    package var episodeCount: Int
    /// Episodes not marked played.
    package var unplayedCount: Int
    /// Episodes never started and not marked played: what is new to the listener.
    package var newCount: Int
    /// The show's people, as its feed names them.
    package var persons: [FeedPerson]
    /// Ways to support the show, as its feed names them; opened only when the listener asks.
    package var funding: [FundingLink]

    package init(
        id: Int64, title: String, author: String? = nil, summary: String? = nil, feedURL: URL, link: URL? = nil,
        imageURL: URL? = nil, etag: String? = nil, lastModified: String? = nil, addedAt: Date,
        lastCheckedAt: Date? = nil, episodeCount: Int = 0, unplayedCount: Int = 0, newCount: Int = 0, persons: [FeedPerson] = [],
        funding: [FundingLink] = []
    ) {
        self.persons = persons
        self.funding = funding
        self.id = id
        self.title = title
        self.author = author
        self.summary = summary
        self.feedURL = feedURL
        self.link = link
        self.imageURL = imageURL
        self.etag = etag
        self.lastModified = lastModified
        self.addedAt = addedAt
        self.lastCheckedAt = lastCheckedAt
        self.episodeCount = episodeCount
        self.unplayedCount = unplayedCount
        self.newCount = newCount
    }

    /// What to send with the next conditional request for the feed.
    package var validators: FeedValidators {
        FeedValidators(etag: etag, lastModified: lastModified)
    }
}

extension PodcastRecord {
    /// Columns: the podcast table plus `episodeCount`, `unplayedCount` and `newCount` (see `PodcastQueries`).
    init(row: Row) throws {
        self.init(
            id: try row.decode(Int64.self, forColumn: "id"),
            title: try row.decode(String.self, forColumn: "title"),
            author: try row.decode(String?.self, forColumn: "author"),
            summary: try row.decode(String?.self, forColumn: "summary"),
            feedURL: try row.requiredURL("feedURL"),
            link: try row.url("link"),
            imageURL: try row.url("imageURL"),
            etag: try row.decode(String?.self, forColumn: "etag"),
            lastModified: try row.decode(String?.self, forColumn: "lastModified"),
            addedAt: try row.requiredDate("addedAt"),
            lastCheckedAt: try row.date("lastCheckedAt"),
            episodeCount: try row.decode(Int.self, forColumn: "episodeCount"),
            unplayedCount: try row.decode(Int.self, forColumn: "unplayedCount"),
            newCount: try row.decode(Int.self, forColumn: "newCount"),
            persons: LibraryJSON.list(try row.decode(String?.self, forColumn: "persons")),
            funding: LibraryJSON.list(try row.decode(String?.self, forColumn: "funding")))
    }
}
