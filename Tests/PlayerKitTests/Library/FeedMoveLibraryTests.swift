import Foundation
import Library
import PlayerCore
import PlayerKit
import Streaming
import Synchronization
import TestProcesses
import Testing

/// Feeds that move, against real servers: `itunes:new-feed-url`, permanent and temporary
/// redirects, `podcast:guid` on subscribing, and refreshing every podcast at once.
@Suite("PodcastLibrary: moved feeds and refreshing all", .serialized, .blocking)
struct FeedMoveLibraryTests {
    typealias Setup = PodcastLibraryTests.Setup

    static func feed(title: String, guids: [String], head: String = "") -> Data {
        let items: String = guids.map { guid -> String in
            #"<item><guid>\#(guid)</guid><title>\#(guid)</title><enclosure url="https://cdn.example.org/\#(guid).mp3" type="audio/mpeg"/></item>"#
        }.joined()
        return Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="\(FeedFixtures.itunesNamespace)" xmlns:podcast="\(FeedFixtures.podcastNamespace)">
            <channel><title>\(title)</title>\(head)\(items)</channel></rss>
            """.utf8)
    }

    static func rss(_ body: Data) -> TestHTTPServer.Response { .complete(contentType: "application/rss+xml", body: body) }

    static func redirect(_ status: Int, to location: String) -> TestHTTPServer.Response {
        TestHTTPServer.Response(status: status, headers: [("Location", location), ("Content-Length", "0")])
    }

    @Test func newFeedURLMovesTheSubscriptionOnAddAndLaterFetchesGoThere() async throws {
        let server = try TestHTTPServer { request in
            request.path == "/old"
                ? Self.rss(Self.feed(title: "Mover", guids: ["a"], head: "<itunes:new-feed-url>/new</itunes:new-feed-url>"))
                : Self.rss(Self.feed(title: "Mover", guids: ["a", "b"]))
        }
        defer { server.stop() }
        let setup = try Setup()
        let added = try await setup.library.add(feedURL: server.url("/old"))
        #expect(added.feedURL == server.url("/new"))
        #expect(try setup.store.podcasts().map(\.feedURL) == [server.url("/new")])

        guard case .updated(let result) = try await setup.library.refresh(try setup.store.podcast(matching: "Mover")) else {
            Issue.record("expected an update")
            return
        }
        #expect(result.added == 1)
        #expect(server.requests.map(\.path) == ["/old", "/new"])
    }

    @Test func newFeedURLSeenOnRefreshMovesTheSubscription() async throws {
        let moved = Mutex(false)
        let server = try TestHTTPServer { request in
            let head = moved.withLock { $0 } ? "<itunes:new-feed-url>/new</itunes:new-feed-url>" : ""
            return Self.rss(Self.feed(title: "Mover", guids: ["a"], head: head))
        }
        defer { server.stop() }
        let setup = try Setup()
        let podcast = try await setup.library.add(feedURL: server.url("/old"))
        #expect(podcast.feedURL == server.url("/old"))
        moved.withLock { $0 = true }
        guard case .updated(let result) = try await setup.library.refresh(podcast) else {
            Issue.record("expected an update")
            return
        }
        #expect(result.podcast.feedURL == server.url("/new"))
        // The new address names itself: nothing moves again.
        _ = try await setup.library.refresh(try setup.store.podcast(matching: "Mover"))
        #expect(server.requests.map(\.path) == ["/old", "/old", "/new"])
        #expect(try setup.store.podcasts().map(\.feedURL) == [server.url("/new")])
    }

    @Test func aNewFeedURLAnotherSubscriptionHasKeepsTheOldAddress() async throws {
        let moved = Mutex(false)
        let server = try TestHTTPServer { request in
            if request.path == "/b" { return Self.rss(Self.feed(title: "Bravo", guids: ["b1"])) }
            let head = moved.withLock { $0 } ? "<itunes:new-feed-url>/b</itunes:new-feed-url>" : ""
            return Self.rss(Self.feed(title: "Alpha", guids: ["a1"], head: head))
        }
        defer { server.stop() }
        let setup = try Setup()
        let alpha = try await setup.library.add(feedURL: server.url("/a"))
        _ = try await setup.library.add(feedURL: server.url("/b"))
        moved.withLock { $0 = true }
        // Not a failure and not a crash on the UNIQUE feed URL: the refresh counts, the address stays.
        guard case .updated(let result) = try await setup.library.refresh(alpha) else {
            Issue.record("expected an update")
            return
        }
        #expect(result.podcast.feedURL == server.url("/a"))
        #expect(Set(try setup.store.podcasts().map(\.feedURL)) == [server.url("/a"), server.url("/b")])
        // Subscribing to a feed that says it moved to a subscribed one is the same podcast twice.
        await expectFailure(.alreadyInLibrary) { try await setup.library.add(feedURL: server.url("/c")) }
        #expect(try setup.store.podcasts().count == 2)
    }

    @Test(arguments: [
        ([301], true), ([308], true), ([301, 308], true), ([302], false), ([303], false), ([307], false), ([301, 302], false),
        ([307, 301], false),
    ])
    func aRefreshThroughRedirectsMovesOnlyWhenEveryHopIsPermanent(chain: [Int], moves: Bool) async throws {
        let redirecting = Mutex(false)
        let server = try TestHTTPServer { request in
            if redirecting.withLock({ $0 }), request.path.hasPrefix("/hop") || request.path == "/feed" {
                let hop = request.path == "/feed" ? 0 : Int(request.path.dropFirst(4))!
                return Self.redirect(chain[hop], to: hop + 1 < chain.count ? "/hop\(hop + 1)" : "/final")
            }
            return Self.rss(Self.feed(title: "Hopper", guids: ["a"]))
        }
        defer { server.stop() }
        let setup = try Setup()
        let podcast = try await setup.library.add(feedURL: server.url("/feed"))
        redirecting.withLock { $0 = true }
        guard case .updated(let result) = try await setup.library.refresh(podcast) else {
            Issue.record("expected an update")
            return
        }
        let expected = moves ? server.url("/final") : server.url("/feed")
        #expect(result.podcast.feedURL == expected)
        #expect(try setup.store.podcasts().map(\.feedURL) == [expected])
        // The next refresh asks the stored address first.
        let before = server.requests.count
        _ = try await setup.library.refresh(try setup.store.podcast(matching: "Hopper"))
        #expect(server.requests[before].path == (moves ? "/final" : "/feed"))
    }

    @Test func aNotModifiedAnswerThroughAPermanentRedirectMovesToo() async throws {
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/feed" where request.header("If-None-Match") != nil: return Self.redirect(301, to: "/final")
            case "/final": return TestHTTPServer.Response(status: 304, headers: [("ETag", "\"v1\"")])
            default:
                return .complete(contentType: "application/rss+xml", body: Self.feed(title: "Quiet", guids: ["a"]), headers: [("ETag", "\"v1\"")])
            }
        }
        defer { server.stop() }
        let setup = try Setup()
        let podcast = try await setup.library.add(feedURL: server.url("/feed"))
        #expect(try await setup.library.refresh(podcast) == .notModified)
        #expect(server.requests.last?.path == "/final")
        #expect(server.requests.last?.header("If-None-Match") == "\"v1\"")
        #expect(try setup.store.podcasts().map(\.feedURL) == [server.url("/final")])
    }

    @Test func addingThroughAPermanentRedirectKeepsTheNewAddress() async throws {
        let server = try TestHTTPServer { request in
            request.path == "/old" ? Self.redirect(308, to: "/new") : Self.rss(Self.feed(title: "Moved", guids: ["a"]))
        }
        defer { server.stop() }
        let setup = try Setup()
        #expect(try await setup.library.add(feedURL: server.url("/old")).feedURL == server.url("/new"))
        // Its old address is the same subscription.
        await expectFailure(.alreadyInLibrary) { try await setup.library.add(feedURL: server.url("/old")) }
    }

    @Test func aFeedWithTheSamePodcastGUIDIsAlreadyInTheLibrary() async throws {
        let guid = "<podcast:guid>917393e3-1b1e-5cef-ace4-edaa54e1f810</podcast:guid>"
        let server = try TestHTTPServer { request in
            request.path == "/other" ? Self.rss(Self.feed(title: "Other", guids: ["o"])) : Self.rss(Self.feed(title: "Same Show", guids: ["a"], head: guid))
        }
        defer { server.stop() }
        let setup = try Setup()
        let first = try await setup.library.add(feedURL: server.url("/first-host/feed"))
        #expect(try setup.store.podcastGUID(podcastID: first.id) == "917393e3-1b1e-5cef-ace4-edaa54e1f810")
        await expectFailure(.alreadyInLibrary) { try await setup.library.add(feedURL: server.url("/moved-host/feed")) }
        _ = try await setup.library.add(feedURL: server.url("/other"))
        #expect(try setup.store.podcasts().map(\.title) == ["Other", "Same Show"])
    }

    @Test func itemsSharingAGUIDAreAllSubscribedAndSurviveARefresh() async throws {
        let body = Data(
            """
            <?xml version="1.0"?><rss version="2.0"><channel><title>Sloppy</title>
            <item><guid>ep</guid><title>Two</title><enclosure url="https://cdn.example.org/2.mp3"/></item>
            <item><guid>ep</guid><title>One</title><enclosure url="https://cdn.example.org/1.mp3"/></item>
            </channel></rss>
            """.utf8)
        let server = try TestHTTPServer { _ in Self.rss(body) }
        defer { server.stop() }
        let setup = try Setup()
        let podcast = try await setup.library.add(feedURL: server.url("/feed"))
        let episodes = try setup.store.episodes(podcastID: podcast.id)
        #expect(Set(episodes.map(\.title)) == ["One", "Two"])
        let one = try #require(episodes.first { $0.title == "One" })
        try setup.store.savePosition(episodeID: one.id, position: 12, duration: nil)
        guard case .updated(let result) = try await setup.library.refresh(podcast) else {
            Issue.record("expected an update")
            return
        }
        #expect(result.added == 0 && result.updated == 0)
        #expect(try setup.store.resumePosition(episodeID: one.id) == 12)
    }

    /// Each feed's server holds its answer until every feed has been asked for: a refresh that
    /// fetched one feed after another would never get its first answer (a 503 after the deadline).
    @Test func refreshAllFetchesFeedsConcurrentlyAndReportsInPodcastOrder() async throws {
        let arrivals = Arrivals(expected: 3)
        let titles = ["Charlie", "Alpha", "Bravo"]
        let servers = try titles.enumerated().map { index, title in
            try TestHTTPServer { _ in
                guard arrivals.arriveAndWait() else { return .complete(status: 503, contentType: "text/plain", body: Data()) }
                return Self.rss(Self.feed(title: title, guids: (0...index).map { "\(title)-\($0)" }))
            }
        }
        defer { servers.forEach { $0.stop() } }
        let failing = try TestHTTPServer { _ in .complete(status: 404, contentType: "text/plain", body: Data()) }
        defer { failing.stop() }
        let setup = try Setup()
        for (server, title) in zip(servers, titles) {
            _ = try setup.store.addPodcast(feedURL: server.url("/feed"), feed: PodcastFeed(title: title), validators: FeedValidators())
        }
        _ = try setup.store.addPodcast(feedURL: failing.url("/gone"), feed: PodcastFeed(title: "Delta"), validators: FeedValidators())

        let reports = try await setup.library.refreshAll()
        #expect(reports.map(\.podcast.title) == ["Alpha", "Bravo", "Charlie", "Delta"])
        let added = reports.map { report -> Int? in
            if case .success(.updated(let result)) = report.outcome { result.added } else { nil }
        }
        // Charlie's feed has one episode, Alpha's two, Bravo's three: each report is its own podcast's.
        #expect(added == [2, 3, 1, nil])
        if case .failure(let error) = reports[3].outcome { #expect(error.code == .httpNotFound) } else { Issue.record("Delta should fail") }
        #expect(try setup.store.podcasts().map(\.episodeCount) == [2, 3, 1, 0])
    }

    @Test func refreshAllOfAnEmptyLibraryIsEmpty() async throws {
        #expect(try await Setup().library.refreshAll().isEmpty)
    }
}

/// A rendezvous for requests served on different servers' threads: each waits until `expected`
/// have arrived, or gives up after a deadline so a wrong (sequential) caller fails rather than hangs.
final class Arrivals: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0
    private let expected: Int

    init(expected: Int) { self.expected = expected }

    func arriveAndWait(deadline seconds: Double = 10) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        count += 1
        condition.broadcast()
        let until = Date(timeIntervalSinceNow: seconds)
        while count < expected { if !condition.wait(until: until) { return false } }
        return true
    }
}
