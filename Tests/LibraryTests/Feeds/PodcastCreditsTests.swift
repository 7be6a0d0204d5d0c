import Foundation
@testable import Library
import PlayerCore
import TestProcesses
import Testing

/// Seasons, episode numbers, people and support links as feeds write them: `podcast:` first,
/// `itunes:` in its absence, unusable values left out, lists bounded, addresses http(s) only.
@Suite("Seasons, episodes, people and funding in feeds")
struct PodcastCreditsTests {
    static func feed(channel: String = "", item: String) throws -> PodcastFeed {
        let xml = """
            <rss xmlns:podcast="\(FeedFixtures.podcastNamespace)" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><title>T</title>\(channel)
            <item><guid>1</guid><title>One</title>\(item)</item></channel></rss>
            """
        return try RSSParser.parse(Data(xml.utf8), feedURL: URL(string: "https://feeds.example.org/show.xml"))
    }

    static func episode(_ item: String) throws -> FeedEpisode { try #require(try feed(item: item).episodes.first) }

    @Test func seasonAndEpisodeFromEitherNamespace() throws {
        var episode = try Self.episode("<podcast:season>2</podcast:season><podcast:episode>315.5</podcast:episode>")
        #expect(episode.season == 2 && episode.episodeNumber == 315.5)
        episode = try Self.episode("<itunes:season> 3 </itunes:season><itunes:episode>12</itunes:episode>")
        #expect(episode.season == 3 && episode.episodeNumber == 12)
        // podcast: wins; a bad podcast: value falls back to itunes:.
        episode = try Self.episode("<itunes:season>9</itunes:season><podcast:season>4</podcast:season><podcast:episode>x</podcast:episode><itunes:episode>7</itunes:episode>")
        #expect(episode.season == 4 && episode.episodeNumber == 7)
    }

    @Test(arguments: ["0", "-1", "1e3", "abc", "", "2.5", "100001", "NaN", "٣"])
    func unusableSeasonsAreNone(text: String) throws {
        #expect(try Self.episode("<podcast:season>\(text)</podcast:season>").season == nil)
    }

    @Test(arguments: ["0", "-3", "1e3", "abc", "", "inf", "1.2.3", "2000000", "٣"])
    func unusableEpisodeNumbersAreNone(text: String) throws {
        #expect(try Self.episode("<podcast:episode>\(text)</podcast:episode>").episodeNumber == nil)
    }

    @Test func peopleWithRolesLinksAndPictures() throws {
        let feed = try Self.feed(
            channel: """
                <podcast:person href="https://example.org/alice" img="/alice.jpg">Alice Host</podcast:person>
                <podcast:funding url="https://patreon.example/show">Support us on Patreon</podcast:funding>
                <podcast:funding url="javascript:alert(1)">Evil</podcast:funding>
                <podcast:funding url="https://patreon.example/show">Again</podcast:funding>
                <podcast:funding url="/donate"/>
                """,
            item: """
                <podcast:person role="Guest" href="ftp://nope/bob">Bob  Guest</podcast:person>
                <podcast:person role="guest">Bob  Guest</podcast:person>
                <podcast:person role="editor"></podcast:person>
                <podcast:person group="writing" role="Editor">Carol&#x202E;</podcast:person>
                """)
        #expect(feed.persons == [FeedPerson(name: "Alice Host", role: "host", link: URL(string: "https://example.org/alice"), image: URL(string: "https://feeds.example.org/alice.jpg"))])
        #expect(feed.funding == [
            FundingLink(url: URL(string: "https://patreon.example/show")!, title: "Support us on Patreon"),
            FundingLink(url: URL(string: "https://feeds.example.org/donate")!, title: nil),
        ])
        let people = try #require(feed.episodes.first).persons
        // Roles lowercased; one entry per name and role; no name, no person; a link must be http(s); text cleaned.
        #expect(people.map(\.role) == ["guest", "editor"])
        #expect(people.first?.name == "Bob Guest" && people.first?.link == nil)
        #expect(people.last?.name == "Carol")
    }

    @Test func aFeedNamingThousandsOfPeopleKeepsAFew() throws {
        let many = (0..<5_000).map { "<podcast:person role=\"guest\">Person \($0)</podcast:person>" }.joined()
        let feed = try Self.feed(channel: many.replacingOccurrences(of: "guest", with: "host"), item: many)
        #expect(feed.persons.count == FeedPerson.maxPerList)
        #expect(feed.episodes.first?.persons.count == FeedPerson.maxPerList)
        let funding = (0..<100).map { "<podcast:funding url=\"https://e.org/\($0)\">f</podcast:funding>" }.joined()
        #expect(try Self.feed(channel: funding, item: "").funding.count == FundingLink.maxPerShow)
    }

    @Test func soundbitesWithAUsableStartAndLength() throws {
        let episode = try Self.episode("""
            <podcast:soundbite startTime="73.0" duration="60.0">Why the Namespace Matters</podcast:soundbite>
            <podcast:soundbite startTime="1234.5" duration="42.25"/>
            <podcast:soundbite startTime="73.0" duration="10">The same start again</podcast:soundbite>
            <podcast:soundbite startTime="-5" duration="10">Negative</podcast:soundbite>
            <podcast:soundbite startTime="10" duration="0">Empty</podcast:soundbite>
            <podcast:soundbite startTime="10" duration="3600">An hour is no soundbite</podcast:soundbite>
            <podcast:soundbite startTime="1e3" duration="10">Exponent</podcast:soundbite>
            <podcast:soundbite duration="10">No start</podcast:soundbite>
            """)
        #expect(episode.soundbites == [
            Soundbite(start: 73, duration: 60, title: "Why the Namespace Matters"), Soundbite(start: 1234.5, duration: 42.25, title: nil),
        ])
        let many = (0..<100).map { "<podcast:soundbite startTime=\"\($0)\" duration=\"5\"/>" }.joined()
        #expect(try Self.episode(many).soundbites.count == Soundbite.maxPerEpisode)
    }

    @Test func podloveChaptersInTheItemAreRead() throws {
        let xml = """
            <rss xmlns:psc="http://podlove.org/simple-chapters"><channel><title>T</title>
            <item><guid>1</guid><title>One</title>
            <psc:chapters version="1.2">
              <psc:chapter start="00:01:02.500" title="Second"/>
              <psc:chapter start="0" title="Intro"/>
              <psc:chapter start="1:00:00" title="Late&#x202E;"/>
              <psc:chapter start="soon" title="Unreadable"/>
              <psc:chapter title="No start"/>
            </psc:chapters></item>
            <item><guid>2</guid><title>Two</title><chapters><chapter start="5" title="Not Podlove"/></chapters></item>
            </channel></rss>
            """
        let feed = try RSSParser.parse(Data(xml.utf8), feedURL: URL(string: "https://feeds.example.org/show.xml"))
        #expect(feed.episodes.first?.inlineChapters == [
            Chapter(start: 0, title: "Intro"), Chapter(start: 62.5, title: "Second"), Chapter(start: 3_600, title: "Late"),
        ])
        #expect(feed.episodes.last?.inlineChapters == [])
        let many = (0..<2_000).map { "<psc:chapter start=\"\($0)\" title=\"c\"/>" }.joined()
        let big = try RSSParser.parse(
            Data("<rss xmlns:psc=\"http://podlove.org/simple-chapters\"><channel><title>T</title><item><guid>1</guid><psc:chapters>\(many)</psc:chapters></item></channel></rss>".utf8))
        #expect(big.episodes.first?.inlineChapters.count == ChapterList.maxCount)
    }

    @Test(arguments: [
        ("0", 0.0), ("62.5", 62.5), ("01:02", 62.0), ("1:02:03.500", 3_723.5), (" 00:00:05 ", 5.0), ("100:00", 6_000.0),
    ] as [(String, Double)])
    func podloveStartsInNormalPlayTime(text: String, seconds: Double) {
        #expect(PodloveChapters.seconds(text) == seconds)
    }

    @Test(arguments: ["", "1:60", "1:2:3:4", "-1", "1e3", ".5", "5.", "1.2.3", "1:02.5:03", "soon", "٣"])
    func unreadablePodloveStartsAreNone(text: String) {
        #expect(PodloveChapters.seconds(text) == nil)
    }
}
