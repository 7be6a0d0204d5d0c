import Foundation
import Library
import PlayerCore
import TestProcesses
import Testing

@Suite("RSS parser: broken, foreign and hostile documents")
struct RSSParserRobustnessTests {
    let base = URL(string: "http://127.0.0.1:8080/media")!

    func code(_ body: () throws(PlaybackError) -> PodcastFeed) -> PlaybackError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.code
        }
    }

    @Test func htmlIsWrongContentType() {
        #expect(code { () throws(PlaybackError) in try RSSParser.parse(FeedFixtures.htmlPage()) } == .wrongContentType)
        let xhtml = Data(#"<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>"#.utf8)
        #expect(code { () throws(PlaybackError) in try RSSParser.parse(xhtml) } == .wrongContentType)
        let bomAndSpace = Data([0xEF, 0xBB, 0xBF] + Array("\n  <HTML><body>x</body></HTML>".utf8))
        #expect(code { () throws(PlaybackError) in try RSSParser.parse(bomAndSpace) } == .wrongContentType)
    }

    @Test(arguments: [
        FeedFixtures.garbage(), Data(), Data("ab".utf8), Data("just some text".utf8),
        // A <feed> outside Atom's namespace is not Atom.
        Data("<feed><title>Not Atom</title><entry><title>x</title></entry></feed>".utf8),
        Data("<rss version=\"2.0\"></rss>".utf8), Data("<opml><body/></opml>".utf8),
        Data(#"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><channel/></rdf:RDF>"#.utf8),
    ])
    func notRSSIsInvalidFeed(data: Data) {
        #expect(code { () throws(PlaybackError) in try RSSParser.parse(data) } == .invalidFeed)
    }

    @Test func overTheLimitIsTooLargeBeforeAnyParsing() {
        var data = Data("<rss><channel><title>T</title></channel></rss>".utf8)
        data.append(Data(repeating: 0x20, count: LibraryLimits.maxFeedBytes - data.count))
        #expect(code { () throws(PlaybackError) in try RSSParser.parse(data) } == nil)  // exactly at the limit
        data.append(0x20)
        #expect(code { () throws(PlaybackError) in try RSSParser.parse(data) } == .documentTooLarge)
    }

    @Test func latin1DeclaredFeedReadsCorrectly() throws {
        let feed = try RSSParser.parse(FeedFixtures.latin1Feed())
        #expect(feed.title == FeedFixtures.latin1Title)
        #expect(feed.episodes.map(\.title) == [FeedFixtures.latin1EpisodeTitle])
    }

    @Test func windows1251DeclaredFeedReadsCorrectly() throws {
        let feed = try RSSParser.parse(FeedFixtures.windows1251Feed())
        #expect(feed.title == FeedFixtures.cyrillicTitle)
        #expect(feed.episodes.map(\.title) == [FeedFixtures.cyrillicEpisodeTitle])
    }

    @Test func duplicateGUIDsKeepTheFirst() throws {
        let feed = try RSSParser.parse(FeedFixtures.duplicateGUIDFeed())
        #expect(feed.episodes.map(\.title) == ["First", "Middle"])
    }

    @Test func fiveThousandItems() throws {
        let feed = try RSSParser.parse(FeedFixtures.largeFeed(count: 5_000, enclosureBase: base))
        #expect(feed.episodes.count == 5_000)
        #expect(Set(feed.episodes.map(\.guid)).count == 5_000)
        #expect(feed.episodes.last?.enclosure?.url.absoluteString == FeedFixtures.url(base, "large-5000.mp3"))
        #expect(feed.episodes.allSatisfy { $0.publishedAt != nil && $0.summary?.contains("<") == false })
    }

    /// Decision: a document that breaks off keeps the items completed before the break.
    @Test func truncatedFeedKeepsCompleteItems() throws {
        let whole = FeedFixtures.normalFeed(enclosureBase: base, episodeCount: 3)
        let text = try #require(String(data: whole, encoding: .utf8))
        let thirdItem = try #require(text.range(of: FeedFixtures.Normal.guid(3)))
        let cut = Data(text[..<thirdItem.lowerBound].utf8)
        let feed = try RSSParser.parse(cut)
        #expect(feed.title == FeedFixtures.Normal.title)
        #expect(feed.episodes.map(\.guid) == [FeedFixtures.Normal.guid(1), FeedFixtures.Normal.guid(2)])
    }

    @Test func anUndefinedEntityDoesNotCostTheFeed() throws {
        let xml = """
            <rss><channel><title>T</title><item><guid>1</guid><title>Fish &nbsp; chips</title></item>
            <item><guid>2</guid><title>After</title></item></channel></rss>
            """
        let feed = try RSSParser.parse(Data(xml.utf8))
        #expect(feed.episodes.map(\.guid) == ["1", "2"])
    }

    @Test func externalEntitiesAreNeverLoaded() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-xxe-\(UUID().uuidString).txt")
        try Data("TOP-SECRET-CONTENT".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY xxe SYSTEM "\(secret.absoluteString)">]>
            <rss><channel><title>Leak &xxe; here</title><item><guid>1</guid><title>&xxe;</title></item></channel></rss>
            """
        do {
            let feed = try RSSParser.parse(Data(xml.utf8))
            #expect(!feed.title.contains("TOP-SECRET"))
            #expect(feed.episodes.allSatisfy { !$0.title.contains("TOP-SECRET") && !$0.guid.contains("TOP-SECRET") })
        } catch {
            #expect(error.code == .invalidFeed)
        }
    }

    @Test func entityExpansionBombIsContained() throws {
        var entities = "<!ENTITY lol0 \"lollollollollollollollollollol\">"
        for level in 1...9 {
            let previous = String(repeating: "&lol\(level - 1);", count: 10)
            entities += "<!ENTITY lol\(level) \"\(previous)\">"
        }
        let xml = "<?xml version=\"1.0\"?><!DOCTYPE rss [\(entities)]><rss><channel><title>&lol9;</title></channel></rss>"
        do {
            let feed = try RSSParser.parse(Data(xml.utf8))
            #expect(feed.title.count <= LibraryLimits.maxTitleLength)
        } catch {
            #expect(error.code == .invalidFeed)
        }
    }

    @Test(arguments: FeedFixtures.hostileTitles)
    func hostileTextIsSanitised(title: String) throws {
        let feed: PodcastFeed
        do {
            feed = try RSSParser.parse(FeedFixtures.hostileTitleFeed(title: title, enclosureBase: base))
        } catch {
            // Raw C0 controls are not XML; refusing the document is also safe, but only as a typed error.
            #expect(error.code == .invalidFeed)
            return
        }
        let texts = [feed.title] + feed.episodes.flatMap { [$0.title, $0.summary ?? "", $0.guid] }
        for text in texts {
            #expect(!text.unicodeScalars.contains(where: TextSanitizer.isForbidden), "\(text.debugDescription)")
            #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"))
        }
        #expect(feed.title.count <= LibraryLimits.maxTitleLength)
        #expect(feed.episodes.allSatisfy { $0.title.count <= LibraryLimits.maxTitleLength })
        #expect(feed.episodes.allSatisfy { ($0.summary?.count ?? 0) <= LibraryLimits.maxSummaryLength })
    }

    @Test func xmlLegalHostileCharactersAreRemovedNotTheFeed() throws {
        // C1 and bidi controls are legal XML characters: the feed parses and they are stripped.
        let feed = try RSSParser.parse(FeedFixtures.hostileTitleFeed(title: "C1\u{9D}and \u{202E}bidi", enclosureBase: base))
        #expect(feed.title == "C1and bidi")
        #expect(feed.episodes.first?.title == "C1and bidi")
        let long = try RSSParser.parse(FeedFixtures.hostileTitleFeed(title: String(repeating: "x", count: 4_000), enclosureBase: base))
        #expect(long.title.count == LibraryLimits.maxTitleLength)
        #expect(long.title.hasSuffix("…"))
        let path = try RSSParser.parse(FeedFixtures.hostileTitleFeed(title: "../../etc/passwd", enclosureBase: base))
        #expect(path.title == "../../etc/passwd")  // kept as text; file names are derived by hashing, never from titles
    }

    @Test func escapeSequencesAsCharacterReferencesAreStripped() throws {
        // `&#x9B;` (C1 CSI) and `&#x202E;` are legal references; raw ESC is not XML at all.
        let xml = "<rss><channel><title>A&#x9B;31mB&#x202E;C</title></channel></rss>"
        #expect(try RSSParser.parse(Data(xml.utf8)).title == "A31mBC")
    }
}
