import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The SAX half of `RSSParser`: turns XMLParser's events into the raw texts and attributes of the
/// channel and its items, with no policy (no sanitising, no fallbacks); `RSSParser` decides. An
/// Atom document (RFC 4287) is read into the same shapes: its `<feed>` as the channel, each
/// `<entry>` as an item, `<link rel="enclosure">` as an enclosure.
///
/// Streaming, so a 5,000-item feed is never held as a tree: each item's fields are collected while
/// it is open and handed over when it closes. Only items whose `</item>` was seen count, so a
/// document that breaks off keeps exactly its complete items.
///
/// Elements are matched by namespace URI when the document binds one, else by the conventional
/// prefix (`itunes:`, `podcast:`, `content:`), because feeds use those prefixes without declaring
/// them, or with a mistyped URI. Atom's elements are matched only in Atom's namespace, so an RSS
/// feed's `atom:link` never passes for an RSS element, nor RSS's elements for Atom's.
final class RSSDocumentReader: NSObject, XMLParserDelegate {
    /// The raw fields of `<channel>`.
    struct Channel {
        var title: String?
        var link: String?
        var description: String?
        var itunesSummary: String?
        var itunesAuthor: String?
        var author: String?
        var managingEditor: String?
        var itunesImageHref: String?
        var imageURL: String?
        var itunesNewFeedURL: String?
        var podcastGUID: String?
        /// The show's `podcast:person`s, in order (at most `maxRawList`).
        var persons: [Person] = []
        /// Every `<podcast:funding url>` with its text, in order (at most `maxRawList`).
        var funding: [(url: String?, text: String?)] = []
    }

    /// A `<podcast:soundbite startTime duration>TITLE</podcast:soundbite>`, raw.
    struct RawSoundbite {
        var start: String?
        var duration: String?
        var title: String?
    }

    /// A `<podcast:alternateEnclosure type length bitrate title default>` with its
    /// `<podcast:source uri>`s and `<podcast:integrity type value>`s, raw.
    struct RawAlternate {
        var type: String?
        var length: String?
        var bitrate: String?
        var title: String?
        var isDefault: String?
        var sources: [String] = []
        var integrity: [(type: String?, value: String?)] = []
    }

    /// A `<podcast:person role group img href>NAME</podcast:person>`, raw.
    struct Person {
        var name: String?
        var role: String?
        var href: String?
        var image: String?
    }

    /// The most raw entries of one repeated tag kept per channel or item; the parser keeps fewer.
    static let maxRawList = 64

    /// The raw fields of one `<item>`.
    struct Item {
        var title: String?
        var description: String?
        var itunesSummary: String?
        var contentEncoded: String?
        var guid: String?
        var pubDate: String?
        /// Atom's `<updated>`, the date when an entry has no `<published>`.
        var updated: String?
        var duration: String?
        /// Every `<enclosure>`'s attributes, in order.
        var enclosures: [(url: String?, length: String?, type: String?)] = []
        var chaptersURL: String?
        /// Every `<podcast:transcript url type language rel>`, in order (at most a few kept).
        var transcripts: [(url: String?, type: String?, language: String?)] = []
        var podcastSeason: String?
        var itunesSeason: String?
        var podcastEpisode: String?
        var itunesEpisode: String?
        /// The episode's `podcast:person`s, in order (at most `maxRawList`).
        var persons: [Person] = []
        /// The episode's `podcast:soundbite`s, in order (at most `maxRawList`).
        var soundbites: [RawSoundbite] = []
        /// Podlove Simple Chapters (`<psc:chapter start title>` inside `<psc:chapters>`), in
        /// order (at most `maxRawChapters`).
        var pscChapters: [(start: String?, title: String?)] = []
        /// The episode's `podcast:alternateEnclosure`s, in order (at most `maxRawList`).
        var alternates: [RawAlternate] = []
        /// A `<podcast:liveItem status start end>`'s attributes; nil for an `<item>`.
        var live: (status: String?, start: String?, end: String?)?
    }

    /// The most raw Podlove chapters kept per item (the parser keeps `ChapterList.maxCount`).
    static let maxRawChapters = 1_000

    /// The lowercased local name of the root element; nil when no element was seen (not XML).
    private(set) var rootName: String?
    /// The root is Atom's `<feed>` (in the Atom namespace).
    private(set) var isAtom = false
    private(set) var sawChannel = false
    private(set) var channel = Channel()
    /// Called for each complete item, in document order; returns false to stop reading items.
    private let onItem: (Item) -> Bool

    private enum Node {
        case rss, channel, item, image, atomAuthor, pscChapters, alternateEnclosure, field(Field), other
    }

    private enum Field {
        case channelTitle, channelLink, channelDescription, channelItunesSummary, channelItunesAuthor, channelAuthor
        case channelManagingEditor, imageURL, channelNewFeedURL, channelPodcastGUID, channelPerson, channelFunding
        case itemTitle, itemDescription, itemItunesSummary, itemContentEncoded, itemGUID, itemPubDate, itemUpdated, itemDuration
        case itemPodcastSeason, itemItunesSeason, itemPodcastEpisode, itemItunesEpisode, itemPerson, itemSoundbite
    }

    private enum Namespace {
        case plain, atom, itunes, podcast, content, psc, other
    }

    private var stack: [Node] = []
    private var item = Item()
    private var acceptsItems = true
    /// The attributes of the `podcast:person` or `podcast:funding` whose text is being collected.
    private var pendingPerson = Person()
    private var pendingFundingURL: String?
    private var pendingSoundbite = RawSoundbite()
    /// The stack depth of the field whose text is being collected, and that text.
    private var captureDepth: Int?
    private var captureLimit = 0
    private var text = ""

    init(onItem: @escaping (Item) -> Bool) {
        self.onItem = onItem
    }

    /// Parses `data`; false when XMLParser reported an error (what was read before it is kept).
    func read(_ data: Data) -> Bool {
        let parser = XMLParser(data: XMLInput.forXMLParser(data))
        parser.delegate = self
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        // XXE: never load external entities or DTDs (also XMLParser's default, stated on purpose).
        parser.shouldResolveExternalEntities = false
        parser.externalEntityResolvingPolicy = .never
        return parser.parse()
    }

    // MARK: - XMLParserDelegate

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String]
    ) {
        guard let parent = stack.last else {
            rootName = elementName.lowercased()
            if rootName == "feed", namespace(of: namespaceURI, qualifiedName: qName ?? elementName) == .atom {
                // Atom has no channel element: the feed itself is one.
                isAtom = true
                sawChannel = true
                stack.append(.channel)
                return
            }
            stack.append(.rss)
            if rootName != "rss" { parser.abortParsing() }
            return
        }
        let node = classify(elementName, namespace: namespace(of: namespaceURI, qualifiedName: qName ?? elementName), parent: parent,
            attributes: attributeDict)
        stack.append(node)
        if case .field(let field) = node {
            captureDepth = stack.count
            captureLimit = isSummary(field) ? LibraryLimits.maxRawSummaryBytes : LibraryLimits.maxRawFieldBytes
            text = ""
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard let node = stack.last else { return }
        if captureDepth == stack.count, case .field(let field) = node {
            store(text, in: field)
            captureDepth = nil
            text = ""
        }
        stack.removeLast()
        if case .item = node {
            if !onItem(item) { acceptsItems = false }
            item = Item()
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        append(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard captureDepth != nil else { return }
        append(String(decoding: CDATABlock, as: UTF8.self))
    }

    // MARK: - Elements

    private func classify(_ name: String, namespace: Namespace, parent: Node, attributes: [String: String]) -> Node {
        switch (parent, namespace, name) {
        case (.rss, .plain, "channel") where !sawChannel:
            sawChannel = true
            return .channel
        case (.channel, .plain, "item"):
            return acceptsItems ? .item : .other
        case (.channel, .podcast, "liveItem"):
            // An item of its own, with where the broadcast stands.
            guard acceptsItems else { return .other }
            item.live = (attribute("status", in: attributes), attribute("start", in: attributes), attribute("end", in: attributes))
            return .item
        case (.channel, .plain, "image"): return .image
        case (.image, .plain, "url"): return .field(.imageURL)
        case (.channel, .plain, "title"): return .field(.channelTitle)
        case (.channel, .plain, "link"): return .field(.channelLink)
        case (.channel, .plain, "description"): return .field(.channelDescription)
        case (.channel, .plain, "author"): return .field(.channelAuthor)
        case (.channel, .plain, "managingEditor"): return .field(.channelManagingEditor)
        case (.channel, .itunes, "summary"): return .field(.channelItunesSummary)
        case (.channel, .itunes, "author"): return .field(.channelItunesAuthor)
        case (.channel, .itunes, "new-feed-url"): return .field(.channelNewFeedURL)
        case (.channel, .podcast, "guid"): return .field(.channelPodcastGUID)
        case (.channel, .podcast, "person") where channel.persons.count < Self.maxRawList:
            pendingPerson = person(attributes)
            return .field(.channelPerson)
        case (.channel, .podcast, "funding") where channel.funding.count < Self.maxRawList:
            pendingFundingURL = attribute("url", in: attributes)
            return .field(.channelFunding)
        case (.channel, .itunes, "image"):
            if channel.itunesImageHref == nil { channel.itunesImageHref = attribute("href", in: attributes) }
            return .other
        case (.item, .plain, "title"): return .field(.itemTitle)
        case (.item, .plain, "description"): return .field(.itemDescription)
        case (.item, .plain, "guid"): return .field(.itemGUID)
        case (.item, .plain, "pubDate"): return .field(.itemPubDate)
        case (.item, .itunes, "summary"): return .field(.itemItunesSummary)
        case (.item, .itunes, "duration"): return .field(.itemDuration)
        case (.item, .content, "encoded"): return .field(.itemContentEncoded)
        case (.item, .podcast, "season"): return .field(.itemPodcastSeason)
        case (.item, .itunes, "season"): return .field(.itemItunesSeason)
        case (.item, .podcast, "episode"): return .field(.itemPodcastEpisode)
        case (.item, .itunes, "episode"): return .field(.itemItunesEpisode)
        case (.item, .podcast, "soundbite") where item.soundbites.count < Self.maxRawList:
            pendingSoundbite = RawSoundbite(start: attribute("starttime", in: attributes), duration: attribute("duration", in: attributes))
            return .field(.itemSoundbite)
        case (.item, .podcast, "person") where item.persons.count < Self.maxRawList:
            pendingPerson = person(attributes)
            return .field(.itemPerson)
        case (.item, .plain, "enclosure"):
            item.enclosures.append(
                (attribute("url", in: attributes), attribute("length", in: attributes), attribute("type", in: attributes)))
            return .other
        case (.item, .podcast, "alternateEnclosure") where item.alternates.count < Self.maxRawList:
            item.alternates.append(
                RawAlternate(
                    type: attribute("type", in: attributes), length: attribute("length", in: attributes),
                    bitrate: attribute("bitrate", in: attributes), title: attribute("title", in: attributes),
                    isDefault: attribute("default", in: attributes)))
            return .alternateEnclosure
        case (.alternateEnclosure, .podcast, "source"):
            if let uri = attribute("uri", in: attributes), item.alternates[item.alternates.count - 1].sources.count < Self.maxRawList {
                item.alternates[item.alternates.count - 1].sources.append(uri)
            }
            return .other
        case (.alternateEnclosure, .podcast, "integrity"):
            if item.alternates[item.alternates.count - 1].integrity.count < 4 {
                item.alternates[item.alternates.count - 1].integrity.append((attribute("type", in: attributes), attribute("value", in: attributes)))
            }
            return .other
        case (.item, .psc, "chapters"): return .pscChapters
        case (.pscChapters, .psc, "chapter"):
            if item.pscChapters.count < Self.maxRawChapters {
                item.pscChapters.append((attribute("start", in: attributes), attribute("title", in: attributes)))
            }
            return .other
        case (.item, .podcast, "chapters"):
            if item.chaptersURL == nil { item.chaptersURL = attribute("url", in: attributes) }
            return .other
        case (.item, .podcast, "transcript"):
            if item.transcripts.count < 8 {
                item.transcripts.append((attribute("url", in: attributes), attribute("type", in: attributes), attribute("language", in: attributes)))
            }
            return .other
        case (_, .atom, _):
            return classifyAtom(name, parent: parent, attributes: attributes)
        default:
            return .other
        }
    }

    /// Atom's elements (RFC 4287), into the channel's and items' fields; in an Atom document only
    /// (an RSS feed's `atom:link` is not its web page).
    private func classifyAtom(_ name: String, parent: Node, attributes: [String: String]) -> Node {
        guard isAtom else { return .other }
        switch (parent, name) {
        case (.channel, "entry"): return acceptsItems ? .item : .other
        case (.channel, "title"): return .field(.channelTitle)
        case (.channel, "subtitle"): return .field(.channelDescription)
        case (.channel, "author"): return .atomAuthor
        case (.atomAuthor, "name"): return .field(.channelAuthor)
        case (.channel, "logo"), (.channel, "icon"): return .field(.imageURL)
        case (.channel, "link"):
            // The feed's web page is its `alternate` link (the relation when none is named).
            if (attribute("rel", in: attributes) ?? "alternate").lowercased() == "alternate", channel.link == nil {
                channel.link = attribute("href", in: attributes)
            }
            return .other
        case (.item, "title"): return .field(.itemTitle)
        case (.item, "id"): return .field(.itemGUID)
        case (.item, "published"): return .field(.itemPubDate)
        case (.item, "updated"): return .field(.itemUpdated)
        case (.item, "summary"): return .field(.itemDescription)
        case (.item, "content"): return .field(.itemContentEncoded)
        case (.item, "link"):
            if attribute("rel", in: attributes)?.lowercased() == "enclosure" {
                item.enclosures.append(
                    (attribute("href", in: attributes), attribute("length", in: attributes), attribute("type", in: attributes)))
            }
            return .other
        default:
            return .other
        }
    }

    private func store(_ value: String, in field: Field) {
        switch field {
        case .channelTitle: channel.title = channel.title ?? value
        case .channelLink: channel.link = channel.link ?? value
        case .channelDescription: channel.description = channel.description ?? value
        case .channelItunesSummary: channel.itunesSummary = channel.itunesSummary ?? value
        case .channelItunesAuthor: channel.itunesAuthor = channel.itunesAuthor ?? value
        case .channelAuthor: channel.author = channel.author ?? value
        case .channelManagingEditor: channel.managingEditor = channel.managingEditor ?? value
        case .imageURL: channel.imageURL = channel.imageURL ?? value
        case .channelNewFeedURL: channel.itunesNewFeedURL = channel.itunesNewFeedURL ?? value
        case .channelPodcastGUID: channel.podcastGUID = channel.podcastGUID ?? value
        case .channelPerson:
            pendingPerson.name = value
            channel.persons.append(pendingPerson)
        case .channelFunding: channel.funding.append((pendingFundingURL, value))
        case .itemTitle: item.title = item.title ?? value
        case .itemDescription: item.description = item.description ?? value
        case .itemItunesSummary: item.itunesSummary = item.itunesSummary ?? value
        case .itemContentEncoded: item.contentEncoded = item.contentEncoded ?? value
        case .itemGUID: item.guid = item.guid ?? value
        case .itemPubDate: item.pubDate = item.pubDate ?? value
        case .itemUpdated: item.updated = item.updated ?? value
        case .itemDuration: item.duration = item.duration ?? value
        case .itemPodcastSeason: item.podcastSeason = item.podcastSeason ?? value
        case .itemItunesSeason: item.itunesSeason = item.itunesSeason ?? value
        case .itemPodcastEpisode: item.podcastEpisode = item.podcastEpisode ?? value
        case .itemItunesEpisode: item.itunesEpisode = item.itunesEpisode ?? value
        case .itemPerson:
            pendingPerson.name = value
            item.persons.append(pendingPerson)
        case .itemSoundbite:
            pendingSoundbite.title = value
            item.soundbites.append(pendingSoundbite)
        }
    }

    private func isSummary(_ field: Field) -> Bool {
        switch field {
        case .channelDescription, .channelItunesSummary, .itemDescription, .itemItunesSummary, .itemContentEncoded: true
        default: false
        }
    }

    /// Text of the field being collected and of anything nested in it (HTML left unescaped).
    private func append(_ string: String) {
        guard captureDepth != nil, text.utf8.count < captureLimit else { return }
        text += string
    }

    // MARK: - Names

    private static let itunesURI = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    private static let podcastURIs: Set<String> = [
        "https://podcastindex.org/namespace/1.0", "http://podcastindex.org/namespace/1.0",
        "https://github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md",
    ]
    private static let contentURI = "http://purl.org/rss/1.0/modules/content/"
    private static let atomURI = "http://www.w3.org/2005/atom"
    private static let pscURI = "http://podlove.org/simple-chapters"

    /// The namespace an element is in: by URI when bound, else by its conventional prefix. An
    /// element without prefix is plain RSS even under a default namespace (old feeds declare
    /// `xmlns="http://backend.userland.com/rss2"`).
    private func namespace(of uri: String?, qualifiedName: String) -> Namespace {
        // The prefix ends at the first colon byte, where libxml2 splits a qualified name (cheaper
        // than a search by characters, which runs for every element of the document).
        let name = qualifiedName.utf8
        let prefix = name.firstIndex(of: UInt8(ascii: ":")).map { String(decoding: name[..<$0], as: UTF8.self).lowercased() }
        if let uri, !uri.isEmpty {
            let lowered = uri.lowercased()
            if lowered == Self.itunesURI { return .itunes }
            if Self.podcastURIs.contains(lowered.hasSuffix("/") ? String(lowered.dropLast()) : lowered) { return .podcast }
            if lowered == Self.contentURI { return .content }
            if lowered == Self.atomURI { return .atom }
            if lowered == Self.pscURI || lowered == Self.pscURI + "/" { return .psc }
            if prefix == nil { return .plain }
        }
        switch prefix {
        case nil: return .plain
        case "itunes": return .itunes
        case "podcast": return .podcast
        case "content": return .content
        case "psc": return .psc
        default: return .other
        }
    }

    private func person(_ attributes: [String: String]) -> Person {
        Person(role: attribute("role", in: attributes), href: attribute("href", in: attributes), image: attribute("img", in: attributes))
    }

    /// An attribute by name, ignoring case and any prefix (`URL`, `Href`).
    private func attribute(_ name: String, in attributes: [String: String]) -> String? {
        if let value = attributes[name] { return value }
        return attributes.first { key, _ in
            let local = key.firstIndex(of: ":").map { key[key.index(after: $0)...] } ?? key[...]
            return local.lowercased() == name
        }?.value
    }
}
