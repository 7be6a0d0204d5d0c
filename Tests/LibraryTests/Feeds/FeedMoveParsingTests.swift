import Foundation
import Library
import PlayerCore
import TestProcesses
import Testing

/// What a feed says about where it lives and which podcast it is: `itunes:new-feed-url` and
/// `podcast:guid` in RSS and Atom, and items that share one guid.
@Suite("RSS parser: moved feeds, podcast:guid, shared item guids")
struct FeedMoveParsingTests {
    static let feedURL = URL(string: "https://old.example.org/shows/feed.xml")!

    static func rss(channel: String, items: String = "") -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="\(FeedFixtures.itunesNamespace)" xmlns:podcast="\(FeedFixtures.podcastNamespace)">
            <channel><title>Moving Show</title>\(channel)\(items)</channel></rss>
            """.utf8)
    }

    static func item(_ title: String, guid: String, audio: String?) -> String {
        let enclosure = audio.map { #"<enclosure url="\#($0)" length="10" type="audio/mpeg"/>"# } ?? ""
        return "<item><title>\(title)</title><guid>\(guid)</guid>\(enclosure)</item>"
    }

    @Test func newFeedURLIsReadAndResolved() throws {
        let absolute = try RSSParser.parse(
            Self.rss(channel: "<itunes:new-feed-url> https://new.example.org/feed.xml </itunes:new-feed-url>"), feedURL: Self.feedURL)
        #expect(absolute.newFeedURL == URL(string: "https://new.example.org/feed.xml"))
        // Relative to the address the feed was fetched from, as every URL of a feed is.
        let relative = try RSSParser.parse(Self.rss(channel: "<itunes:new-feed-url>moved.xml</itunes:new-feed-url>"), feedURL: Self.feedURL)
        #expect(relative.newFeedURL == URL(string: "https://old.example.org/shows/moved.xml"))
        #expect(try RSSParser.parse(Self.rss(channel: ""), feedURL: Self.feedURL).newFeedURL == nil)
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://files.example.org/feed.xml", "javascript:alert(1)", "", "https://"])
    func aNewFeedURLThatIsNotHTTPIsIgnored(url: String) throws {
        let feed = try RSSParser.parse(Self.rss(channel: "<itunes:new-feed-url>\(url)</itunes:new-feed-url>"), feedURL: Self.feedURL)
        #expect(feed.newFeedURL == nil)
        #expect(feed.title == "Moving Show")
    }

    @Test func podcastGUIDIsReadLowercased() throws {
        let feed = try RSSParser.parse(
            Self.rss(channel: "<podcast:guid>\n  917393E3-1B1E-5CEF-ACE4-EDAA54E1F810 </podcast:guid>"), feedURL: Self.feedURL)
        #expect(feed.podcastGUID == "917393e3-1b1e-5cef-ace4-edaa54e1f810")
        #expect(try RSSParser.parse(Self.rss(channel: "<podcast:guid>  </podcast:guid>")).podcastGUID == nil)
    }

    @Test func anItemsGUIDIsNotThePodcasts() throws {
        // podcast:guid inside an item is not the channel's identity.
        let feed = try RSSParser.parse(Self.rss(channel: "", items: "<item><title>x</title><podcast:guid>abc</podcast:guid></item>"))
        #expect(feed.podcastGUID == nil)
    }

    @Test func atomFeedsCarryBothToo() throws {
        let data = Data(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="\(FeedFixtures.atomNamespace)" xmlns:itunes="\(FeedFixtures.itunesNamespace)" xmlns:podcast="\(FeedFixtures.podcastNamespace)">
            <title>Atom Mover</title>
            <itunes:new-feed-url>https://new.example.org/atom.xml</itunes:new-feed-url>
            <podcast:guid>c8c2a8a0-3b5e-5b1c-9f0e-4a2c7d1e9b3f</podcast:guid>
            </feed>
            """.utf8)
        let feed = try RSSParser.parse(data, feedURL: Self.feedURL)
        #expect(feed.newFeedURL == URL(string: "https://new.example.org/atom.xml"))
        #expect(feed.podcastGUID == "c8c2a8a0-3b5e-5b1c-9f0e-4a2c7d1e9b3f")
    }

    @Test func itemsSharingAGUIDWithOtherAudioAreAllKept() throws {
        let items = [
            Self.item("Three", guid: "episode", audio: "https://cdn.example.org/3.mp3"),
            Self.item("Two", guid: "episode", audio: "https://cdn.example.org/2.mp3"),
            Self.item("Two again", guid: "episode", audio: "https://cdn.example.org/2.mp3"),
            Self.item("No audio", guid: "episode", audio: nil),
            Self.item("One", guid: "episode", audio: "https://cdn.example.org/1.mp3"),
        ].joined()
        let feed = try RSSParser.parse(Self.rss(channel: "", items: items), feedURL: Self.feedURL)
        // A repeat of kept audio and an item without audio add nothing; other audio is another episode.
        #expect(feed.episodes.map(\.title) == ["Three", "Two", "One"])
        #expect(feed.episodes[0].guid == "episode")
        #expect(Set(feed.episodes.map(\.guid)).count == 3)
        // Derived from guid and audio, so the next refresh finds the same episodes.
        let again = try RSSParser.parse(Self.rss(channel: "", items: items), feedURL: Self.feedURL)
        #expect(again.episodes.map(\.guid) == feed.episodes.map(\.guid))
        // A derived guid does not depend on the item's place: a new item above leaves it alone.
        let withNewer = try RSSParser.parse(
            Self.rss(channel: "", items: Self.item("Four", guid: "four", audio: "https://cdn.example.org/4.mp3") + items), feedURL: Self.feedURL)
        #expect(Array(withNewer.episodes.dropFirst().map(\.guid)) == feed.episodes.map(\.guid))
    }
}
