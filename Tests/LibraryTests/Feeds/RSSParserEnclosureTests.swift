import Foundation
import Library
import PlayerCore
import TestProcesses
import Testing

@Suite("RSS parser: enclosures")
struct RSSParserEnclosureTests {
    @Test func itemsWithoutUsableAudioAreKeptWithoutEnclosure() throws {
        let feed = try RSSParser.parse(FeedFixtures.missingEnclosureFeed(), feedURL: URL(string: "https://example.com/feed.xml"))
        #expect(feed.episodes.map(\.guid) == ["none", "file", "script", "garbage"])
        #expect(feed.episodes.allSatisfy { $0.enclosure == nil })
    }

    @Test func relativeEnclosuresResolveAgainstTheFeedURL() throws {
        let feedURL = try #require(URL(string: "https://feeds.example.com/shows/one/feed.xml"))
        let feed = try RSSParser.parse(FeedFixtures.relativeEnclosureFeed(), feedURL: feedURL)
        #expect(feed.episodes.map { $0.enclosure?.url.absoluteString } == [
            "https://feeds.example.com/shows/one/media/rel-1.mp3",
            "https://feeds.example.com/abs/rel-2.mp3",
            "https://cdn.example.net/rel-3.mp3",
        ])
        #expect(feed.episodes.map { $0.enclosure?.length } == [nil, nil, 42])  // 0 and junk mean unknown
        #expect(feed.episodes[2].enclosure?.type == "audio/mpeg")
    }

    @Test func relativeEnclosuresWithoutFeedURLAreDropped() throws {
        let feed = try RSSParser.parse(FeedFixtures.relativeEnclosureFeed())
        #expect(feed.episodes.count == 3)
        #expect(feed.episodes.allSatisfy { $0.enclosure == nil })
    }

    @Test func relativeEnclosureAgainstAFileFeedURLIsDropped() throws {
        let feed = try RSSParser.parse(FeedFixtures.relativeEnclosureFeed(), feedURL: URL(fileURLWithPath: "/tmp/feed.xml"))
        #expect(feed.episodes.allSatisfy { $0.enclosure == nil })
    }

    @Test func firstUsableEnclosureWinsAndOddURLsAreEncoded() throws {
        let xml = """
            <rss><channel><title>T</title><item><guid>1</guid>
            <enclosure url="ftp://example.com/a.mp3"/><enclosure url=" https://example.com/my episode.mp3 " length="1.5e6" type="audio/mpeg"/>
            <enclosure url="https://example.com/second.mp3"/></item></channel></rss>
            """
        let enclosure = try #require(try RSSParser.parse(Data(xml.utf8)).episodes.first?.enclosure)
        #expect(enclosure.url.absoluteString == "https://example.com/my%20episode.mp3")
        #expect(enclosure.length == 1_500_000)
    }

    @Test(arguments: ["-5", "0", "", "abc", "NaN", "1e400"])
    func junkLengthsAreNil(length: String) throws {
        let xml = "<rss><channel><title>T</title><item><guid>1</guid><enclosure url=\"https://e.com/a.mp3\" length=\"\(length)\"/></item></channel></rss>"
        let enclosure = try #require(try RSSParser.parse(Data(xml.utf8)).episodes.first?.enclosure)
        #expect(enclosure.length == nil)
    }

    @Test func nonHTTPChaptersAndImagesAreDropped() throws {
        let xml = """
            <rss xmlns:itunes="\(FeedFixtures.itunesNamespace)" xmlns:podcast="\(FeedFixtures.podcastNamespace)"><channel><title>T</title>
            <itunes:image href="file:///etc/passwd"/><image><url>javascript:alert(1)</url></image><link>data:text/html,hi</link>
            <item><guid>1</guid><podcast:chapters url="file:///etc/shadow" type="application/json+chapters"/></item></channel></rss>
            """
        let feed = try RSSParser.parse(Data(xml.utf8))
        #expect(feed.imageURL == nil)
        #expect(feed.link == nil)
        #expect(feed.episodes.first?.chaptersURL == nil)
    }
}
