import Foundation
import PlayerCore

/// Reads a podcast's RSS or Atom document into a `PodcastFeed`. Pure: bytes in, a value out, no
/// network.
///
/// Decisions (each tested):
/// - RSS 2.0 (root `<rss>` with a `<channel>`) and Atom (root `<feed>` in the Atom namespace, its
///   entries' `<link rel="enclosure">` as the audio; `itunes:` and `podcast:` tags read in both).
///   RSS 1.0 (`<rdf:RDF>`) is refused with `.invalidFeed`: no podcast publishes it.
/// - A document that breaks off (a cut download) or has an XML error after its `<channel>`
///   opened keeps the items that were complete before the break. Foundation's XMLParser runs
///   libxml2 in recovery mode, so one stray `&nbsp;` does not cost a whole podcast; the store
///   only adds and updates episodes on refresh, so a short read loses nothing already known.
/// - An item without a usable enclosure is kept with `enclosure == nil` (the player
///   then says "This episode doesn't have audio available"). Of several enclosures, the first
///   usable one counts.
/// - Duplicate guids within one feed: the first item keeps the guid. A later item with the same
///   guid but other audio is another episode (a generator that stamps one guid on every item):
///   its guid is derived from the guid and its enclosure URL, so it is kept, and found again on
///   the next refresh. A later item with the same guid and the same audio (or none) is a repeat
///   and is dropped.
/// - `itunes:new-feed-url` and `podcast:guid` are read in RSS and Atom; the new URL goes
///   through the same http(s) policy as every other URL of a feed.
/// - Seasons and episode numbers from `podcast:season`/`podcast:episode`, else `itunes:`; people
///   (`podcast:person`) and support links (`podcast:funding`) cleaned and bounded
///   (`PodcastCredits`), their addresses under the same http(s) policy; soundbites with a usable
///   start and length (`Soundbite`); Podlove Simple Chapters with a readable start (`PodloveChapters`).
/// - At most `LibraryLimits.maxEpisodesPerFeed` episodes, in feed order.
/// - Encodings: libxml2 honours the declared encoding (`ISO-8859-1`, `windows-1251`, ...).
package enum RSSParser {
    /// Parses `data`. `feedURL`, the address the feed was fetched from, resolves relative URLs and
    /// names an untitled podcast.
    ///
    /// - Throws: `.documentTooLarge` over `LibraryLimits.maxFeedBytes`; `.wrongContentType` for an
    ///   HTML page; `.invalidFeed` for anything that is not XML, nor RSS, nor Atom.
    package static func parse(_ data: Data, feedURL: URL? = nil) throws(PlaybackError) -> PodcastFeed {
        guard data.count <= LibraryLimits.maxFeedBytes else {
            throw PlaybackError(.documentTooLarge, underlying: "feed of \(data.count) bytes")
        }
        if XMLSniffer.looksLikeHTML(data) {
            throw PlaybackError(.wrongContentType, underlying: "an HTML page where a feed was expected")
        }
        var builder = EpisodeBuilder(feedURL: feedURL)
        let reader = RSSDocumentReader { item in builder.add(item) }
        _ = reader.read(data)
        switch reader.rootName {
        case nil:
            throw PlaybackError(.invalidFeed, underlying: "not an XML document")
        case "html":
            throw PlaybackError(.wrongContentType, underlying: "an XHTML page where a feed was expected")
        case "feed" where reader.isAtom:
            break
        case "rss":
            guard reader.sawChannel else { throw PlaybackError(.invalidFeed, underlying: "RSS without a channel") }
        case let other?:
            throw PlaybackError(.invalidFeed, underlying: "XML whose root is <\(TextSanitizer.singleLine(other, maxLength: 40))>")
        }
        return podcast(reader.channel, episodes: builder.episodes, feedURL: feedURL)
    }

    // MARK: - Channel

    static func podcast(_ channel: RSSDocumentReader.Channel, episodes: [FeedEpisode], feedURL: URL?) -> PodcastFeed {
        let title = FeedText.line(channel.title) ?? feedURL?.host.flatMap { FeedText.line($0) } ?? "Untitled podcast"
        let author =
            FeedText.line(channel.itunesAuthor, maxLength: LibraryLimits.maxAuthorLength)
            ?? FeedText.line(channel.author, maxLength: LibraryLimits.maxAuthorLength)
            ?? FeedText.line(channel.managingEditor.map(nameOfMailbox), maxLength: LibraryLimits.maxAuthorLength)
        let summary = FeedText.summary(channel.description) ?? FeedText.summary(channel.itunesSummary)
        let image = channel.itunesImageHref.flatMap { FeedURL.resolve($0, against: feedURL) }
            ?? channel.imageURL.flatMap { FeedURL.resolve($0, against: feedURL) }
        return PodcastFeed(
            title: title, author: author, summary: summary, link: channel.link.flatMap { FeedURL.resolve($0, against: feedURL) },
            imageURL: image, episodes: episodes, newFeedURL: channel.itunesNewFeedURL.flatMap { FeedURL.resolve($0, against: feedURL) },
            podcastGUID: FeedText.line(channel.podcastGUID, maxLength: LibraryLimits.maxGUIDLength)?.lowercased(),
            persons: PodcastCredits.persons(channel.persons, feedURL: feedURL), funding: PodcastCredits.funding(channel.funding, feedURL: feedURL))
    }

    /// `jane@example.com (Jane Doe)` -> `Jane Doe`; anything else as it is. RSS's
    /// `managingEditor` is a mailbox, and the name is what a listener wants to see.
    static func nameOfMailbox(_ text: String) -> String {
        guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close else { return text }
        let name = text[text.index(after: open)..<close].trimmingWhitespace(newlines: false)
        return name.isEmpty ? text : name
    }
}

/// Turns raw items into episodes as the reader hands them over: fallbacks, sanitising, URL
/// policy, duplicate guids, the episode cap.
struct EpisodeBuilder {
    let feedURL: URL?
    private(set) var episodes: [FeedEpisode] = []
    private var seenGUIDs: Set<String> = []
    /// The enclosure URLs already kept under each guid, to tell a repeated item from another
    /// episode that reuses a guid.
    private var audioByGUID: [String: Set<String>] = [:]

    init(feedURL: URL?) {
        self.feedURL = feedURL
    }

    /// Adds `item` unless its guid was seen; false once the feed holds as many episodes as Tonearm keeps.
    mutating func add(_ item: RSSDocumentReader.Item) -> Bool {
        guard episodes.count < LibraryLimits.maxEpisodesPerFeed else { return false }
        var episode = Self.episode(from: item, feedURL: feedURL)
        if let live = item.live {
            guard let status = LiveStatus.read(status: live.status, start: live.start, end: live.end) else { return true }
            episode.live = status
        }
        let audio = episode.enclosure?.url.absoluteString
        if seenGUIDs.contains(episode.guid) {
            guard let audio, audioByGUID[episode.guid]?.contains(audio) == false else { return true }
            audioByGUID[episode.guid]?.insert(audio)
            episode.guid = StableHash.identifier(for: episode.guid + "\n" + audio)
        }
        if seenGUIDs.insert(episode.guid).inserted {
            episodes.append(episode)
            audioByGUID[episode.guid, default: []].formUnion([audio].compactMap { $0 })
        }
        return episodes.count < LibraryLimits.maxEpisodesPerFeed
    }

    static func episode(from item: RSSDocumentReader.Item, feedURL: URL?) -> FeedEpisode {
        let title = FeedText.line(item.title)
        var enclosure: Enclosure?
        for candidate in item.enclosures where enclosure == nil {
            enclosure = Self.enclosure(url: candidate.url, length: candidate.length, type: candidate.type, feedURL: feedURL)
        }
        let summary = FeedText.summary(item.description) ?? FeedText.summary(item.itunesSummary)
            ?? FeedText.summary(item.contentEncoded)
        return FeedEpisode(
            guid: guid(item, title: title, enclosure: enclosure),
            title: title ?? "Untitled episode",
            summary: summary,
            publishedAt: item.pubDate.flatMap(FeedDate.parse) ?? item.updated.flatMap(FeedDate.parse),
            duration: item.duration.flatMap(ITunesDuration.seconds),
            enclosure: enclosure,
            chaptersURL: item.chaptersURL.flatMap { FeedURL.resolve($0, against: feedURL) },
            transcript: transcript(item.transcripts, feedURL: feedURL),
            season: PodcastCredits.season(item.podcastSeason, itunes: item.itunesSeason),
            episodeNumber: PodcastCredits.episodeNumber(item.podcastEpisode, itunes: item.itunesEpisode),
            persons: PodcastCredits.persons(item.persons, feedURL: feedURL),
            soundbites: Soundbite.list(item.soundbites), inlineChapters: PodloveChapters.chapters(item.pscChapters),
            alternates: AlternateEnclosure.list(item.alternates, feedURL: feedURL))
    }

    /// The best transcript of those named: a format Tonearm reads (by its `type`, else the
    /// address's extension), at an http(s) address, the preferred format first; among equals the
    /// first named.
    static func transcript(_ links: [(url: String?, type: String?, language: String?)], feedURL: URL?) -> TranscriptLink? {
        let readable = links.compactMap { link -> TranscriptLink? in
            guard let raw = link.url, let url = FeedURL.resolve(raw, against: feedURL) else { return nil }
            guard let format = link.type.flatMap(TranscriptFormat.init(mimeType:)) ?? TranscriptFormat(pathExtension: url.pathExtension)
            else { return nil }
            return TranscriptLink(url: url, format: format)
        }
        return readable.enumerated().min { ($0.element.format, $0.offset) < ($1.element.format, $1.offset) }?.element
    }

    /// The item's `guid`; else its enclosure URL; else a stable hash of its title and date text
    /// (`StableHash`: the same in every run, so a refresh finds the same episode). A guid longer
    /// than `LibraryLimits.maxGUIDLength` is replaced by its hash rather than cut, which could
    /// make two episodes share one.
    static func guid(_ item: RSSDocumentReader.Item, title: String?, enclosure: Enclosure?) -> String {
        if let raw = item.guid {
            let cleaned = TextSanitizer.singleLine(raw, maxLength: 0)
            if cleaned.count > LibraryLimits.maxGUIDLength { return StableHash.identifier(for: cleaned) }
            if !cleaned.isEmpty { return cleaned }
        }
        if let enclosure { return enclosure.url.absoluteString }
        let date = item.pubDate.map { TextSanitizer.singleLine($0, maxLength: 0) } ?? ""
        return StableHash.identifier(for: (title ?? "") + "\n" + date)
    }

    /// An http(s) enclosure (relative URLs resolved against the feed), or nil. `length` is a hint:
    /// 0, negative or unreadable is nil; `type` is kept lowercased when it looks like a MIME type.
    static func enclosure(url: String?, length: String?, type: String?, feedURL: URL?) -> Enclosure? {
        guard let url, let resolved = FeedURL.resolve(url, against: feedURL) else { return nil }
        return Enclosure(url: resolved, length: length.flatMap(byteCount), type: type.flatMap(mimeType))
    }

    static func byteCount(_ text: String) -> Int64? {
        let trimmed = text.trimmingWhitespace()
        if let value = Int64(trimmed) { return value > 0 ? value : nil }
        // `12345.0`, `1.2e6`: generators that write numbers as floats.
        guard let value = Double(trimmed), value.isFinite, value >= 1, value < 9.2e18 else { return nil }
        return Int64(value)
    }

    static func mimeType(_ text: String) -> String? {
        guard let cleaned = TextSanitizer.optionalSingleLine(text, maxLength: LibraryLimits.maxMIMETypeLength)?.lowercased()
        else { return nil }
        // Bytes for ASCII (every real type; a search by characters was over a quarter of an
        // enclosure's cost), characters otherwise, where a combining mark makes `/` another character.
        let bytes = cleaned.utf8
        let looksLikeType =
            bytes.allSatisfy { $0 < 0x80 }
            ? bytes.contains(UInt8(ascii: "/")) && !bytes.contains(UInt8(ascii: " "))
            : cleaned.contains("/") && !cleaned.contains(" ")
        return looksLikeType ? cleaned : nil
    }
}
