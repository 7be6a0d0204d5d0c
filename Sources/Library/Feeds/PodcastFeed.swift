import Foundation

/// A podcast feed as parsed from RSS: what the store keeps of a podcast and its episodes.
///
/// The parser produces it and the store consumes it, so both agree on one value type rather than
/// on XML. Every text in it is already sanitised and every URL is
/// http(s); a field the feed does not give (or gives unusably) is nil.
public struct PodcastFeed: Sendable, Equatable {
    public var title: String
    public var author: String?
    public var summary: String?
    /// The podcast's web page.
    public var link: URL?
    public var imageURL: URL?
    /// In feed order (usually newest first).
    public var episodes: [FeedEpisode]
    /// Where the publisher says the feed now lives (`itunes:new-feed-url`): a subscription moves
    /// there, because the old address may stop answering once every app has followed.
    public var newFeedURL: URL?
    /// The Podcasting 2.0 channel identity (`podcast:guid`), lowercased: the same podcast however
    /// many addresses it has had, so it is not subscribed twice under a moved URL.
    public var podcastGUID: String?

    public init(
        title: String, author: String? = nil, summary: String? = nil, link: URL? = nil, imageURL: URL? = nil,
        episodes: [FeedEpisode] = [], newFeedURL: URL? = nil, podcastGUID: String? = nil
    ) {
        self.title = title
        self.author = author
        self.summary = summary
        self.link = link
        self.imageURL = imageURL
        self.episodes = episodes
        self.newFeedURL = newFeedURL
        self.podcastGUID = podcastGUID
    }
}

/// One `<item>` of a feed.
public struct FeedEpisode: Sendable, Equatable {
    /// Stable across refreshes: the item's `guid`, else its enclosure URL, else a hash of title and
    /// date. The store matches refreshed items to known episodes (and their positions) by it.
    public var guid: String
    public var title: String
    public var summary: String?
    public var publishedAt: Date?
    /// Seconds, from `itunes:duration` in any common form.
    public var duration: TimeInterval?
    /// The audio; nil for an item without a usable enclosure (playing it then fails: no audio available).
    public var enclosure: Enclosure?
    /// Podcasting 2.0 `podcast:chapters` document, when the feed names one.
    public var chaptersURL: URL?

    public init(
        guid: String, title: String, summary: String? = nil, publishedAt: Date? = nil, duration: TimeInterval? = nil,
        enclosure: Enclosure? = nil, chaptersURL: URL? = nil
    ) {
        self.guid = guid
        self.title = title
        self.summary = summary
        self.publishedAt = publishedAt
        self.duration = duration
        self.enclosure = enclosure
        self.chaptersURL = chaptersURL
    }
}

/// An RSS `<enclosure url length type>`: the episode's audio file.
public struct Enclosure: Sendable, Equatable {
    public var url: URL
    /// Bytes, when the feed says (feeds often say 0 or lie; it is a hint only).
    public var length: Int64?
    /// MIME type, such as `audio/mpeg`.
    public var type: String?

    public init(url: URL, length: Int64? = nil, type: String? = nil) {
        self.url = url
        self.length = length
        self.type = type
    }
}

/// One podcast subscription of an OPML file.
public struct OPMLSubscription: Sendable, Equatable {
    public var title: String?
    public var feedURL: URL

    public init(title: String?, feedURL: URL) {
        self.title = title
        self.feedURL = feedURL
    }
}
