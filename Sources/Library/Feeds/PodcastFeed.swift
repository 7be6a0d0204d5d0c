import Foundation
import PlayerCore

/// A podcast feed as parsed from RSS: what the store keeps of a podcast and its episodes.
///
/// The parser produces it and the store consumes it, so both agree on one value type rather than
/// on XML. Every text in it is already sanitised and every URL is
/// http(s); a field the feed does not give (or gives unusably) is nil.
package struct PodcastFeed: Sendable, Equatable {
    package var title: String
    package var author: String?
    package var summary: String?
    /// The podcast's web page.
    package var link: URL?
    package var imageURL: URL?
    /// In feed order (usually newest first).
    package var episodes: [FeedEpisode]
    /// Where the publisher says the feed now lives (`itunes:new-feed-url`): a subscription moves
    /// there, because the old address may stop answering once every app has followed.
    package var newFeedURL: URL?
    /// The Podcasting 2.0 channel identity (`podcast:guid`), lowercased: the same podcast however
    /// many addresses it has had, so it is not subscribed twice under a moved URL.
    package var podcastGUID: String?
    /// The show's people (`podcast:person` on the channel): its hosts, usually.
    package var persons: [FeedPerson] = []
    /// Ways to support the show (`podcast:funding`).
    package var funding: [FundingLink] = []

    package init(
        title: String, author: String? = nil, summary: String? = nil, link: URL? = nil, imageURL: URL? = nil,
        episodes: [FeedEpisode] = [], newFeedURL: URL? = nil, podcastGUID: String? = nil, persons: [FeedPerson] = [],
        funding: [FundingLink] = []
    ) {
        self.persons = persons
        self.funding = funding
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
package struct FeedEpisode: Sendable, Equatable {
    /// Stable across refreshes: the item's `guid`, else its enclosure URL, else a hash of title and
    /// date. The store matches refreshed items to known episodes (and their positions) by it.
    package var guid: String
    package var title: String
    package var summary: String?
    package var publishedAt: Date?
    /// Seconds, from `itunes:duration` in any common form.
    package var duration: TimeInterval?
    /// The audio; nil for an item without a usable enclosure (playing it then fails: no audio available).
    package var enclosure: Enclosure?
    /// Podcasting 2.0 `podcast:chapters` document, when the feed names one.
    package var chaptersURL: URL?
    /// The transcript to fetch when the feed names one or more (`podcast:transcript`): the best
    /// format Tonearm reads (`TranscriptFormat`'s order), timed before HTML.
    package var transcript: TranscriptLink?
    /// `podcast:season` (else `itunes:season`).
    package var season: Int?
    /// `podcast:episode` (else `itunes:episode`); a decimal for a bonus between two episodes.
    package var episodeNumber: Double?
    /// The episode's people (`podcast:person` on the item): hosts and guests.
    package var persons: [FeedPerson] = []
    /// Clips of the episode to hear first (`podcast:soundbite`).
    package var soundbites: [Soundbite] = []
    /// Chapters written into the feed (Podlove Simple Chapters), in order.
    package var inlineChapters: [Chapter] = []
    /// Other files of the episode (`podcast:alternateEnclosure`): bitrates, formats, mirrors.
    package var alternates: [AlternateEnclosure] = []
    /// Set for a live episode (`podcast:liveItem`): where its broadcast stands.
    package var live: LiveStatus?

    package init(
        guid: String, title: String, summary: String? = nil, publishedAt: Date? = nil, duration: TimeInterval? = nil,
        enclosure: Enclosure? = nil, chaptersURL: URL? = nil, transcript: TranscriptLink? = nil, season: Int? = nil,
        episodeNumber: Double? = nil, persons: [FeedPerson] = [], soundbites: [Soundbite] = [], inlineChapters: [Chapter] = [],
        alternates: [AlternateEnclosure] = []
    ) {
        self.alternates = alternates
        self.inlineChapters = inlineChapters
        self.soundbites = soundbites
        self.season = season
        self.episodeNumber = episodeNumber
        self.persons = persons
        self.transcript = transcript
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
package struct Enclosure: Sendable, Equatable {
    package var url: URL
    /// Bytes, when the feed says (feeds often say 0 or lie; it is a hint only).
    package var length: Int64?
    /// MIME type, such as `audio/mpeg`.
    package var type: String?

    package init(url: URL, length: Int64? = nil, type: String? = nil) {
        self.url = url
        self.length = length
        self.type = type
    }
}

/// One podcast subscription of an OPML file.
package struct OPMLSubscription: Sendable, Equatable {
    package var title: String?
    package var feedURL: URL

    package init(title: String?, feedURL: URL) {
        self.title = title
        self.feedURL = feedURL
    }
}
