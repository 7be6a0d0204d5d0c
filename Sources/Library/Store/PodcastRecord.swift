import Foundation
import GRDB

/// A podcast in the library, with counts for list screens. Printed by `--json` list commands, so
/// its property names are the JSON keys.
public struct PodcastRecord: Sendable, Equatable, Codable {
    public var id: Int64
    public var title: String
    public var author: String?
    public var summary: String?
    public var feedURL: URL
    /// The podcast's web page.
    public var link: URL?
    public var imageURL: URL?
    public var etag: String?
    public var lastModified: String?
    public var addedAt: Date
    /// When the feed was last fetched successfully (200 or 304).
    public var lastCheckedAt: Date?
    public var episodeCount: Int
    /// Episodes not marked played.
    public var unplayedCount: Int
    /// Episodes never started and not marked played: what is new to the listener.
    public var newCount: Int

    public init(
        id: Int64, title: String, author: String? = nil, summary: String? = nil, feedURL: URL, link: URL? = nil,
        imageURL: URL? = nil, etag: String? = nil, lastModified: String? = nil, addedAt: Date,
        lastCheckedAt: Date? = nil, episodeCount: Int = 0, unplayedCount: Int = 0, newCount: Int = 0
    ) {
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
    public var validators: FeedValidators {
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
            newCount: try row.decode(Int.self, forColumn: "newCount"))
    }
}
