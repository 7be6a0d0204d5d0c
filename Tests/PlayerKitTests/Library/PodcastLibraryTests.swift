import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Streaming
import TestProcesses
import Testing

/// Podcast subscriptions end to end against a real HTTP server: fetch, parse, store, conditional
/// refresh, typed feed errors, OPML import where one dead feed does not stop the rest, and the
/// analytics each failure leaves (without the feed's address or titles).
@Suite("PodcastLibrary against a real HTTP server", .serialized, .blocking)
struct PodcastLibraryTests {
    static func feed(title: String, items: [(guid: String, title: String, audio: String?)]) -> Data {
        // Typed, or GRDB's `[SQL].joined` wins the overload and the feed holds SQL descriptions.
        let entries: String = items.map { item -> String in
            let enclosure = item.audio.map { #"<enclosure url="\#($0)" length="1000" type="audio/mpeg"/>"# } ?? ""
            return """
                <item><guid>\(item.guid)</guid><title>\(item.title)</title>
                <pubDate>Tue, 10 Jun 2025 04:00:00 GMT</pubDate><itunes:duration>1:02</itunes:duration>\(enclosure)</item>
                """
        }.joined(separator: "\n")
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><title>\(title)</title><link>https://example.org/</link>
            \(entries)
            </channel></rss>
            """.utf8)
    }

    struct Setup {
        let directory: URL
        let store: LibraryStore
        let analytics: ErrorAnalytics
        let library: PodcastLibrary

        init(timeout: Double = 5, policy: BackoffPolicy = .once) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-podcasts-\(UUID().uuidString)")
            store = try LibraryStore.open(directory: directory)
            analytics = ErrorAnalytics(store: store.errorEvents)
            var options = PodcastLibrary.Options()
            options.timeout = timeout
            options.policy = policy
            library = PodcastLibrary(store: store, analytics: analytics, options: options)
        }

        func errorTypes() async throws -> [String] { try await analytics.events().map(\.errorType) }
    }

    @Test func addStoresTheFeedAndItsEpisodes() async throws {
        let body = Self.feed(title: "Night Talks", items: [("a", "First", "https://cdn.example.org/1.mp3"), ("b", "No audio", nil)])
        let server = try TestHTTPServer { _ in .complete(contentType: "application/rss+xml", body: body) }
        defer { server.stop() }
        let setup = try Setup()
        let podcast = try await setup.library.add(feedURL: server.url("/feed.xml"))
        #expect(podcast.title == "Night Talks")
        let episodes = try setup.store.episodes(podcastID: podcast.id)
        let byTitle: [String: EpisodeRecord] = Dictionary(episodes.map { ($0.title, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byTitle.keys.sorted() == ["First", "No audio"])
        #expect(byTitle["First"]?.duration == 62)
        #expect(byTitle["First"]?.audioURL?.absoluteString == "https://cdn.example.org/1.mp3")
        #expect(byTitle["No audio"]?.audioURL == nil)
        // The same feed again is refused, typed.
        await expectFailure(.alreadyInLibrary) { try await setup.library.add(feedURL: server.url("/feed.xml")) }
    }

    @Test func anAtomFeedIsSubscribedLikeAnRSSOne() async throws {
        let body = Data(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Atom Talks</title>
            <link rel="alternate" href="https://example.org/atom/"/>
            <entry><title>Pilot</title><id>tag:example.org,2025:1</id><published>2025-06-10T04:00:00Z</published>
            <link rel="enclosure" href="https://cdn.example.org/pilot.mp3" length="1000" type="audio/mpeg"/></entry>
            </feed>
            """.utf8)
        let server = try TestHTTPServer { _ in .complete(contentType: "application/atom+xml", body: body) }
        defer { server.stop() }
        let setup = try Setup()
        let podcast = try await setup.library.add(feedURL: server.url("/atom.xml"))
        #expect(podcast.title == "Atom Talks")
        let episodes = try setup.store.episodes(podcastID: podcast.id)
        #expect(episodes.map(\.title) == ["Pilot"])
        #expect(episodes.first?.audioURL?.absoluteString == "https://cdn.example.org/pilot.mp3")
        // The request says Atom is welcome.
        #expect(server.requests.first?.header("Accept")?.contains("application/atom+xml") == true)
    }

    @Test func refreshIsConditionalAndKeepsPositions() async throws {
        let counter = StreamFaultTests.Counter()
        let first = Self.feed(title: "Show", items: [("a", "One", "https://cdn.example.org/1.mp3")])
        let second = Self.feed(title: "Show", items: [("b", "Two", "https://cdn.example.org/2.mp3"), ("a", "One", "https://cdn.example.org/1.mp3")])
        let server = try TestHTTPServer { request in
            let n = counter.next()
            if n == 2, request.header("If-None-Match") == "\"v1\"" { return .init(status: 304, headers: [("ETag", "\"v1\"")]) }
            return .complete(contentType: "application/rss+xml", body: n == 1 ? first : second, headers: [("ETag", n == 1 ? "\"v1\"" : "\"v2\"")])
        }
        defer { server.stop() }
        let setup = try Setup()
        let podcast = try await setup.library.add(feedURL: server.url("/feed"))
        let one = try #require(try setup.store.episodes(podcastID: podcast.id).first)
        try setup.store.savePosition(episodeID: one.id, position: 42, duration: 62)

        let unchanged = try await setup.library.refresh(try setup.store.podcast(matching: "\(podcast.id)"))
        #expect(unchanged == .notModified)
        #expect(server.requests[1].header("If-None-Match") == "\"v1\"")

        let updated = try await setup.library.refresh(try setup.store.podcast(matching: "Show"))
        guard case .updated(let result) = updated else { Issue.record("expected an update, got \(updated)"); return }
        #expect(result.added == 1)
        let episodes = try setup.store.episodes(podcastID: podcast.id)
        #expect(episodes.count == 2)
        #expect(try setup.store.resumePosition(episodeID: one.id) == 42)
    }

    @Test(arguments: [
        (404, PlaybackError.Code.httpNotFound), (200, .wrongContentType), (201, .invalidFeed),
    ])
    func feedErrorsAreTypedAndRecorded(status: Int, code: PlaybackError.Code) async throws {
        let server = try TestHTTPServer { _ in
            switch status {
            case 404: .complete(status: 404, contentType: "text/plain", body: Data("gone".utf8))
            case 200: .complete(contentType: "text/html", body: Data("<!DOCTYPE html><html><body>Sign in</body></html>".utf8))
            default: .complete(contentType: "application/xml", body: Data("this is { not xml".utf8))
            }
        }
        defer { server.stop() }
        let setup = try Setup()
        let url = server.url("/feed?token=SECRET123")
        await expectFailure(code) { try await setup.library.add(feedURL: url) }
        #expect(try setup.store.podcasts().isEmpty)
        #expect(try await setup.errorTypes() == [PlaybackError(code).errorType])
        // The analytics keep the type, never the address or its token.
        let export = String(decoding: try await setup.analytics.exportJSON(), as: UTF8.self)
        #expect(!export.contains("SECRET123") && !export.contains("127.0.0.1"))
    }

    @Test func aFeedThatNeverAnswersTimesOut() async throws {
        let server = try TestHTTPServer { _ in TestHTTPServer.Response(status: 200, headers: [("Content-Type", "application/rss+xml")], body: [.hold]) }
        defer { server.stop() }
        let setup = try Setup(timeout: 1)
        await expectFailure(.connectionTimeout) { try await setup.library.add(feedURL: server.url("/slow")) }
    }

    @Test func aFeedOverTheCapIsTooLarge() async throws {
        let huge = Data(repeating: UInt8(ascii: " "), count: 2_000_000)
        let server = try TestHTTPServer { _ in .complete(contentType: "application/rss+xml", body: huge) }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-podcasts-\(UUID().uuidString)")
        var options = PodcastLibrary.Options()
        options.maxBytes = 1_000_000
        options.policy = .once
        let library = PodcastLibrary(store: try LibraryStore.open(directory: directory), options: options)
        await expectFailure(.documentTooLarge) { try await library.add(feedURL: server.url("/huge")) }
    }

    @Test func aRedirectedFeedIsFollowed() async throws {
        let body = Self.feed(title: "Moved", items: [("a", "One", "https://cdn.example.org/1.mp3")])
        let server = try TestHTTPServer { request in
            request.path == "/old"
                ? TestHTTPServer.Response(status: 301, headers: [("Location", "/new"), ("Content-Length", "0")])
                : .complete(contentType: "application/rss+xml", body: body)
        }
        defer { server.stop() }
        let setup = try Setup()
        #expect(try await setup.library.add(feedURL: server.url("/old")).title == "Moved")
    }

    @Test func opmlImportReportsTheDeadFeedAndImportsTheRest() async throws {
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/a": .complete(contentType: "application/rss+xml", body: Self.feed(title: "Alpha", items: [("1", "A1", "https://x.example/1.mp3")]))
            case "/c": .complete(contentType: "application/rss+xml", body: Self.feed(title: "Gamma", items: [("1", "C1", "https://x.example/3.mp3")]))
            default: .complete(status: 404, contentType: "text/plain", body: Data())
            }
        }
        defer { server.stop() }
        let opml = Data("""
            <?xml version="1.0"?><opml version="2.0"><head><title>Mine</title></head><body>
            <outline text="Alpha" type="rss" xmlUrl="\(server.baseURL)/a"/>
            <outline text="Dead" type="rss" xmlUrl="\(server.baseURL)/b"/>
            <outline text="Folder"><outline text="Gamma" type="rss" xmlUrl="\(server.baseURL)/c"/></outline>
            </body></opml>
            """.utf8)
        let setup = try Setup()
        let outcomes = try await setup.library.importOPML(opml)
        #expect(outcomes.count == 3)
        let failed = outcomes.compactMap { outcome -> PlaybackError? in
            if case .failed(_, let error) = outcome { error } else { nil }
        }
        #expect(failed.map(\.code) == [.httpNotFound])
        #expect(Set(try setup.store.podcasts().map(\.title)) == ["Alpha", "Gamma"])

        // Export and parse back: the two subscriptions, by their feed addresses.
        let exported = try OPMLParser.parse(try setup.library.exportOPML())
        #expect(Set(exported.map(\.feedURL.path)) == ["/a", "/c"])
    }
}

/// Expects `body` to fail with a `PlaybackError` of `code` (whatever its status or detail).
func expectFailure<T>(_ code: PlaybackError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> T) async {
    do {
        _ = try await body()
        Issue.record("expected \(code), but it succeeded", sourceLocation: sourceLocation)
    } catch {
        #expect((error as? PlaybackError)?.code == code, "got \(error)", sourceLocation: sourceLocation)
    }
}
