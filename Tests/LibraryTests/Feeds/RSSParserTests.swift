import Foundation
import Library
import PlayerCore
import TestProcesses
import Testing

@Suite("RSS parser: feeds as they should be")
struct RSSParserTests {
    let base = URL(string: "http://127.0.0.1:8080/media")!
    typealias Normal = FeedFixtures.Normal

    @Test func channelFields() throws {
        let feed = try RSSParser.parse(FeedFixtures.normalFeed(enclosureBase: base), feedURL: URL(string: "https://feeds.example.com/show.xml"))
        #expect(feed.title == Normal.title)
        #expect(feed.author == Normal.author)  // itunes:author wins over managingEditor
        #expect(feed.summary == "A show about testing audio players.")  // tags stripped
        #expect(feed.link == URL(string: Normal.link))  // not atom:link's href
        #expect(feed.imageURL == URL(string: Normal.imageURL))  // itunes:image wins over <image><url>
    }

    @Test func episodesInFeedOrderWithEveryField() throws {
        let feed = try RSSParser.parse(FeedFixtures.normalFeed(enclosureBase: base, episodeCount: 3))
        #expect(feed.episodes.map(\.guid) == (1...3).map(Normal.guid))
        for (offset, episode) in feed.episodes.enumerated() {
            let number = offset + 1
            #expect(episode.title == Normal.episodeTitle(number))
            #expect(episode.publishedAt == Normal.date(number))
            #expect(episode.duration == Normal.durationSeconds(number))
            #expect(episode.summary == "Notes for episode \(number).\nSecond paragraph & more.")
            let enclosure = try #require(episode.enclosure)
            #expect(enclosure.url.absoluteString == FeedFixtures.url(base, Normal.enclosureName(number)))
            #expect(enclosure.length == Normal.episodeLength)
            #expect(enclosure.type == Normal.episodeType)
            #expect(episode.chaptersURL?.absoluteString == FeedFixtures.url(base, Normal.chaptersName(number)))
        }
    }

    @Test func chaptersMatchedByNamespaceWhateverThePrefix() throws {
        let feed = try RSSParser.parse(FeedFixtures.normalFeed(enclosureBase: base, episodeCount: 2, podcastPrefix: "pi"))
        #expect(feed.episodes.map { $0.chaptersURL?.absoluteString } == (1...2).map { FeedFixtures.url(base, Normal.chaptersName($0)) })
    }

    @Test func conventionalPrefixesWorkWithoutDeclarations() throws {
        let xml = """
            <rss version="2.0"><channel><title>Undeclared</title><itunes:author>Who</itunes:author>
            <item><title>One</title><guid>1</guid><itunes:duration>1:00</itunes:duration>
            <podcast:chapters url="https://example.com/c.json" type="application/json+chapters"/></item></channel></rss>
            """
        let feed = try RSSParser.parse(Data(xml.utf8))
        #expect(feed.author == "Who")
        #expect(feed.episodes.first?.duration == 60)
        #expect(feed.episodes.first?.chaptersURL == URL(string: "https://example.com/c.json"))
    }

    @Test func foreignChaptersElementIsNotPodcastChapters() throws {
        let xml = """
            <rss version="2.0" xmlns:psc="http://podlove.org/simple-chapters"><channel><title>T</title>
            <item><title>One</title><guid>1</guid><psc:chapters url="https://example.com/x.json"/></item></channel></rss>
            """
        #expect(try RSSParser.parse(Data(xml.utf8)).episodes.first?.chaptersURL == nil)
    }

    @Test func authorFallsBackToAuthorThenManagingEditorName() throws {
        let plainAuthor = "<rss><channel><title>T</title><author>Plain Author</author><managingEditor>e@x.org (Ed)</managingEditor></channel></rss>"
        #expect(try RSSParser.parse(Data(plainAuthor.utf8)).author == "Plain Author")
        let editor = "<rss><channel><title>T</title><managingEditor>e@x.org (Ed Itor)</managingEditor></channel></rss>"
        #expect(try RSSParser.parse(Data(editor.utf8)).author == "Ed Itor")
        let bare = "<rss><channel><title>T</title><managingEditor>e@x.org</managingEditor></channel></rss>"
        #expect(try RSSParser.parse(Data(bare.utf8)).author == "e@x.org")
    }

    @Test func imageFallsBackToImageURLAndResolvesRelativeLinks() throws {
        let xml = "<rss><channel><title>T</title><link>/home</link><image><url>art/cover.png</url></image></channel></rss>"
        let feed = try RSSParser.parse(Data(xml.utf8), feedURL: URL(string: "https://host.example/feeds/show.xml"))
        #expect(feed.imageURL?.absoluteString == "https://host.example/feeds/art/cover.png")
        #expect(feed.link?.absoluteString == "https://host.example/home")
    }

    @Test func untitledPodcastGetsTheHostThenAPlaceholder() throws {
        let xml = Data("<rss><channel><description>No title</description><item><guid>1</guid></item></channel></rss>".utf8)
        #expect(try RSSParser.parse(xml, feedURL: URL(string: "https://pods.example.org/feed")).title == "pods.example.org")
        let untitled = try RSSParser.parse(xml)
        #expect(untitled.title == "Untitled podcast")
        #expect(untitled.episodes.first?.title == "Untitled episode")
    }

    @Test func guidFallsBackToEnclosureThenAStableHash() throws {
        let xml = """
            <rss><channel><title>T</title>
            <item><title>With enclosure</title><enclosure url="https://example.com/a.mp3"/></item>
            <item><title>Bare</title><pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate></item>
            <item><title>Bare</title><pubDate>Wed, 11 Jun 2003 04:00:00 GMT</pubDate></item>
            <item><title>Blank guid</title><guid>   </guid><enclosure url="https://example.com/b.mp3"/></item>
            </channel></rss>
            """
        let first = try RSSParser.parse(Data(xml.utf8))
        let again = try RSSParser.parse(Data(xml.utf8))
        #expect(first.episodes.map(\.guid) == again.episodes.map(\.guid))  // stable
        #expect(first.episodes[0].guid == "https://example.com/a.mp3")
        #expect(first.episodes[3].guid == "https://example.com/b.mp3")
        #expect(first.episodes[1].guid.hasPrefix("tonearm-fnv1a64:"))
        #expect(first.episodes[1].guid != first.episodes[2].guid)  // the date tells them apart
        #expect(Set(first.episodes.map(\.guid)).count == 4)
    }

    @Test func overlongGUIDIsHashedNotCut() throws {
        let long = String(repeating: "g", count: LibraryLimits.maxGUIDLength + 1)
        let xml = "<rss><channel><title>T</title><item><guid>\(long)a</guid></item><item><guid>\(long)b</guid></item></channel></rss>"
        let guids = try RSSParser.parse(Data(xml.utf8)).episodes.map(\.guid)
        #expect(guids.count == 2)
        #expect(guids.allSatisfy { $0.hasPrefix("tonearm-fnv1a64:") && $0.count <= LibraryLimits.maxGUIDLength })
        #expect(guids[0] != guids[1])
    }

    @Test func summaryFallsBackToItunesSummaryThenContentEncoded() throws {
        let xml = """
            <rss xmlns:itunes="\(FeedFixtures.itunesNamespace)" xmlns:content="\(FeedFixtures.contentNamespace)"><channel><title>T</title>
            <itunes:summary>Channel summary</itunes:summary>
            <item><guid>1</guid><itunes:summary>Item summary</itunes:summary><content:encoded>Encoded</content:encoded></item>
            <item><guid>2</guid><description>  </description><content:encoded><![CDATA[<div>Only <em>encoded</em></div>]]></content:encoded></item>
            </channel></rss>
            """
        let feed = try RSSParser.parse(Data(xml.utf8))
        #expect(feed.summary == "Channel summary")
        #expect(feed.episodes.map(\.summary) == ["Item summary", "Only encoded"])
    }

    @Test func htmlInsideDescriptionUnescapedIsStillText() throws {
        let xml = "<rss><channel><title>T</title><item><guid>1</guid><description>Hello <b>bold</b> world</description></item></channel></rss>"
        #expect(try RSSParser.parse(Data(xml.utf8)).episodes.first?.summary == "Hello bold world")
    }
}
