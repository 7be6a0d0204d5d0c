import Foundation
import Library
import PlayerCore
import TestProcesses
import Testing

/// Atom feeds (RFC 4287) with enclosures, as some podcast hosts and blog engines publish them:
/// read into the same podcast and episodes as RSS.
@Suite("RSS parser: Atom feeds")
struct AtomFeedTests {
    static let feedURL = URL(string: "https://blog.example.org/podcast/atom.xml")!

    static func feed(_ entries: String, head: String = "") -> Data {
        Data(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="\(FeedFixtures.atomNamespace)" xmlns:itunes="\(FeedFixtures.itunesNamespace)" xmlns:podcast="\(FeedFixtures.podcastNamespace)">
              <title type="text">Atom Show</title>
              <subtitle>Talks, &lt;b&gt;weekly&lt;/b&gt;.</subtitle>
              <link rel="self" href="https://blog.example.org/podcast/atom.xml"/>
              <link href="https://blog.example.org/podcast/"/>
              <author><name>Jane Doe</name><email>jane@example.org</email></author>
              <logo>cover.jpg</logo>
              <id>urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6</id>
              <updated>2024-03-02T10:00:00Z</updated>
              \(head)
              \(entries)
            </feed>
            """.utf8)
    }

    @Test func theFeedIsThePodcast() throws {
        let feed = try RSSParser.parse(Self.feed(""), feedURL: Self.feedURL)
        #expect(feed.title == "Atom Show")
        #expect(feed.summary == "Talks, weekly.")
        #expect(feed.author == "Jane Doe")
        // The alternate link (no rel given), not the self link; the logo resolved against the feed.
        #expect(feed.link == URL(string: "https://blog.example.org/podcast/"))
        #expect(feed.imageURL == URL(string: "https://blog.example.org/podcast/cover.jpg"))
        #expect(feed.episodes.isEmpty)
    }

    @Test func entriesWithEnclosureLinksAreEpisodes() throws {
        let feed = try RSSParser.parse(
            Self.feed(
                """
                <entry>
                  <title>Second</title>
                  <id>urn:ep:2</id>
                  <published>2024-03-02T09:30:00+01:00</published>
                  <updated>2024-03-05T00:00:00Z</updated>
                  <summary>Notes for two.</summary>
                  <link rel="alternate" href="https://blog.example.org/2"/>
                  <link rel="enclosure" href="audio/2.mp3" length="123456" type="Audio/MPEG"/>
                  <itunes:duration>1:02:03</itunes:duration>
                  <podcast:chapters url="https://blog.example.org/2.json" type="application/json+chapters"/>
                </entry>
                <entry>
                  <title>First</title>
                  <id>urn:ep:1</id>
                  <updated>2024-02-01T08:00:00Z</updated>
                  <content type="html">&lt;p&gt;Only content.&lt;/p&gt;</content>
                  <link rel="enclosure" href="https://cdn.example.org/1.m4a" type="audio/mp4"/>
                </entry>
                <entry>
                  <title>A post without audio</title>
                  <id>urn:post:9</id>
                  <updated>2024-01-01T00:00:00Z</updated>
                  <link href="https://blog.example.org/post"/>
                </entry>
                """), feedURL: Self.feedURL)
        #expect(feed.episodes.map(\.guid) == ["urn:ep:2", "urn:ep:1", "urn:post:9"])
        let second = feed.episodes[0]
        #expect(second.title == "Second")
        #expect(second.summary == "Notes for two.")
        // <published> wins over <updated>, with its zone.
        #expect(second.publishedAt == Date(timeIntervalSince1970: 1_709_368_200))
        #expect(second.duration == 3723)
        #expect(second.enclosure?.url == URL(string: "https://blog.example.org/podcast/audio/2.mp3"))
        #expect(second.enclosure?.length == 123_456)
        #expect(second.enclosure?.type == "audio/mpeg")
        #expect(second.chaptersURL == URL(string: "https://blog.example.org/2.json"))
        let first = feed.episodes[1]
        #expect(first.publishedAt == Date(timeIntervalSince1970: 1_706_774_400))  // <updated> when no <published>
        #expect(first.summary == "Only content.")
        #expect(first.enclosure?.url == URL(string: "https://cdn.example.org/1.m4a"))
        // An entry without an enclosure is kept without audio, as an RSS item is.
        #expect(feed.episodes[2].enclosure == nil)
    }

    @Test func duplicateIDsKeepTheFirstEntryOfTheSameAudio() throws {
        let entry = { (title: String, audio: String) in
            "<entry><title>\(title)</title><id>urn:same</id><link rel=\"enclosure\" href=\"https://cdn.example.org/\(audio).mp3\"/></entry>"
        }
        let feed = try RSSParser.parse(Self.feed(entry("a", "x") + entry("b", "x") + entry("c", "y")), feedURL: Self.feedURL)
        // b repeats a's audio and is dropped; c is another episode under the same id.
        #expect(feed.episodes.map(\.title) == ["a", "c"])
        #expect(feed.episodes.first?.guid == "urn:same")
    }

    @Test func anAtomFeedInAnotherEncodingReadsAsDeclared() throws {
        var data = Data("<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n<feed xmlns=\"\(FeedFixtures.atomNamespace)\"><title>".utf8)
        data.append(contentsOf: [0xD0, 0xE0, 0xE4, 0xE8, 0xEE])  // "Радио" in windows-1251
        data.append(Data("</title><entry><title>x</title><id>1</id><link rel=\"enclosure\" href=\"https://cdn.example.org/x.mp3\"/></entry></feed>".utf8))
        let feed = try RSSParser.parse(data, feedURL: Self.feedURL)
        #expect(feed.title == "Радио")
        #expect(feed.episodes.count == 1)
    }

    @Test func anRSSFeedsAtomElementsAreNotRSSOnes() throws {
        // The fixture's RSS carries <atom:link rel="self">: its link stays the RSS <link>.
        let feed = try RSSParser.parse(FeedFixtures.normalFeed(enclosureBase: URL(string: "http://127.0.0.1:8080/media")!))
        #expect(feed.link == URL(string: FeedFixtures.Normal.link))
        // And the old fixture of a minimal Atom feed now reads.
        let atom = try RSSParser.parse(FeedFixtures.atomFeed())
        #expect(atom.title == "Atom")
        #expect(atom.episodes.map(\.guid) == ["urn:1"])
    }
}
