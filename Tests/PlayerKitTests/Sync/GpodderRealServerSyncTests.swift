import Clocks
import Foundation
import Library
import LibraryKit
import Logging
import PlayerCore
import PlayerKit
import Streaming
import Synchronization
import TestProcesses
import Testing

/// Podcast sync against a real gpodder.net-API server (the FastAPI router under uvicorn,
/// `GpodderAPIServer`), with several Tonearm libraries and a second client driven through gPodder's
/// own client library (`GpodderClient`, as AntennaPod or gPodder would send): a second and third
/// computer get every subscription and place, actions that come before their episodes wait for
/// them, and the failures other players are known for are replayed.
///
/// The server answers subscriptions per device (linked devices share them) and episode actions by
/// their own timestamps, so the libraries' clock runs an hour behind the server's, as changes a
/// device made offline are older than the server's last answer when they reach it.
@Suite("Podcast sync against a real gpodder.net server", .serialized, .blocking)
struct GpodderRealServerSyncTests {
    static let user = "listener"
    static let password = "s3cret pass:word"

    /// The libraries' wall clock, an hour behind the real time, in whole seconds.
    static func clock() -> PodcastSyncTests.WallClock {
        PodcastSyncTests.WallClock(start: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 3600))
    }

    /// One Tonearm library, as one device.
    struct Library {
        let store: LibraryStore
        let library: PodcastLibrary
        let sync: PodcastSync

        init(_ server: GpodderAPIServer, clock: PodcastSyncTests.WallClock) throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-realsync-\(UUID().uuidString)")
            store = try LibraryStore.open(directory: directory, now: { clock.now })
            let network = NetworkClient(clock: ImmediateClock(), seed: 5, breakers: HostCircuitBreakers(clock: TestClock<Duration>()))
            library = PodcastLibrary(store: store, network: network)
            sync = PodcastSync(library: library, password: GpodderRealServerSyncTests.password, network: network, hostName: "test-host")
        }

        @discardableResult
        func setUp(_ server: GpodderAPIServer, device: String, linking: PodcastSync.Linking = .all) async throws -> PodcastSync.SetUpReport {
            try await sync.setUp(server: server.baseURL, username: GpodderRealServerSyncTests.user, device: device, linking: linking)
        }

        func episode(guid: String) throws -> EpisodeRecord {
            try #require(try store.podcasts().flatMap { try store.episodes(podcastID: $0.id) }.first { $0.guid == guid })
        }

        func feeds() throws -> Set<String> { Set(try store.podcasts().map(\.feedURL.absoluteString)) }
    }

    /// Feeds on loopback: `/news.xml` and `/talk.xml` (their episodes' files on a CDN), `/moved.xml`
    /// (talk's episodes, moved to another host and CDN), `/growing.xml` (episodes appear as the
    /// test says).
    final class Feeds: Sendable {
        /// How many episodes `/growing.xml` lists.
        final class Count: Sendable {
            let value = Mutex(1)
        }

        let http: TestHTTPServer
        private let growing = Count()

        init() throws {
            let count = growing
            http = try TestHTTPServer { request in
                let body: Data
                switch request.path {
                case "/news.xml": body = Self.rss(title: "News", prefix: "news", cdn: "https://cdn-one.example.org/news", count: 3)
                case "/talk.xml": body = Self.rss(title: "Talk", prefix: "talk", cdn: "https://cdn-one.example.org/talk", count: 3)
                case "/moved.xml": body = Self.rss(title: "Talk", prefix: "talk", cdn: "https://media.example.net/talk", count: 3)
                case "/growing.xml":
                    body = Self.rss(title: "Growing", prefix: "grow", cdn: "https://cdn-one.example.org/grow", count: count.value.withLock { $0 })
                default: return .complete(status: 404, contentType: "text/plain", body: Data())
                }
                return .complete(contentType: "application/rss+xml", body: body)
            }
        }

        func url(_ path: String) -> String { http.url(path).absoluteString }
        func publish(_ count: Int) { growing.value.withLock { $0 = count } }
        func stop() { http.stop() }

        /// `count` hour-long episodes with guids `PREFIX-1`...
        static func rss(title: String, prefix: String, cdn: String, count: Int) -> Data {
            let items: String = (1...max(1, count)).map { n -> String in
                """
                <item><guid isPermaLink="false">\(prefix)-\(n)</guid><title>\(title) \(n)</title>
                <pubDate>Tue, 0\(n) Jun 2025 04:00:00 GMT</pubDate><itunes:duration>1:00:00</itunes:duration>
                <enclosure url="\(cdn)/\(n).mp3" length="1000" type="audio/mpeg"/></item>
                """
            }.joined(separator: "\n")
            return Data("""
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
                <channel><title>\(title)</title><link>https://example.org/</link>
                \(items)
                </channel></rss>
                """.utf8)
        }
    }

    /// The server with the account, the feeds, and gPodder as the account's phone.
    static func start() throws -> (server: GpodderAPIServer, feeds: Feeds, phone: GpodderClient) {
        let server = try GpodderAPIServer()
        try server.register(username: user, password: password)
        let feeds = try Feeds()
        let phone = GpodderClient(server, username: user, password: password, device: "phone")
        _ = try phone.updateDevice(caption: "AntennaPod", type: "mobile")
        return (server, feeds, phone)
    }

    /// A play action as gPodder's client library sends it, with AntennaPod's -1 for what it does not know.
    static func play(_ podcast: String, _ episode: String, guid: String?, at: Date, position: Int, started: Int = -1, total: Int = -1)
        -> [String: Any]
    {
        var action: [String: Any] = [
            "podcast": podcast, "episode": episode, "action": "play", "timestamp": GpodderWire.timestampString(at),
            "started": started, "position": position, "total": total,
        ]
        action["guid"] = guid
        return action
    }

    @Test func aThirdLibraryGetsEverySubscriptionAndPlaceOfTheOtherTwoLinkedOrJoined() async throws {
        let (server, feeds, phone) = try Self.start()
        defer { feeds.stop() }
        let clock = Self.clock()

        // The laptop: the account's first Tonearm library, with News; Episode 2 heard to 0:09, 1 finished.
        let laptop = try Library(server, clock: clock)
        _ = try await laptop.library.add(feedURL: URL(string: feeds.url("/news.xml"))!)
        let first = try await laptop.setUp(server, device: "laptop")
        #expect(first.devices?.map(\.id) == ["phone"] && first.linked == ["phone"], "\(first)")
        clock.advance(5)
        try laptop.store.savePosition(episodeID: try laptop.episode(guid: "news-2").id, position: 9.4, duration: 3600)
        try laptop.store.markPlayed(episodeID: try laptop.episode(guid: "news-1").id)
        #expect(try await laptop.sync.syncNow().sentActions == 2)

        // The phone subscribes to Talk and is at 1:40 in its first episode.
        _ = try phone.subscribe(add: [feeds.url("/talk.xml")])
        _ = try phone.uploadActions([
            Self.play(feeds.url("/talk.xml"), "https://cdn-one.example.org/talk/1.mp3", guid: "talk-1", at: clock.now, position: 100)
        ])

        // A second computer set up as `sync setup` does by default: linked with every device.
        let desktop = try Library(server, clock: clock)
        let second = try await desktop.setUp(server, device: "desktop")
        #expect(Set(second.linked) == ["laptop", "phone"], "\(second)")
        #expect(second.firstSync.fullSync && second.firstSync.subscribed == 2 && second.firstSync.appliedActions == 3, "\(second.firstSync)")
        #expect(try desktop.feeds() == [feeds.url("/news.xml"), feeds.url("/talk.xml")])

        // A third, with a new device id: everything of the other two and the phone.
        let third = try Library(server, clock: clock)
        let report = try await third.setUp(server, device: PodcastSync.newDeviceID())
        #expect(Set(report.linked) == ["laptop", "phone", "desktop"], "\(report)")
        #expect(report.firstSync.subscribed == 2 && report.firstSync.appliedActions == 3 && report.firstSync.heldActions == 0)
        for library in [desktop, third] {
            #expect(try library.episode(guid: "news-2").position == 9)
            #expect(!(try library.episode(guid: "news-2").played))
            #expect(try library.episode(guid: "news-1").played, "a new device pulls played status")
            #expect(try library.episode(guid: "talk-1").position == 100)
            #expect(!(try library.episode(guid: "talk-1").played), "a place with no length is not the end")
        }
        #expect(try third.store.syncAccount()?.linkedDevices.sorted() == ["desktop", "laptop", "phone"])

        // A fourth joins the laptop as the same device: the laptop's subscriptions and every place.
        let fourth = try Library(server, clock: clock)
        let joined = try await fourth.setUp(server, device: "unused", linking: .join("laptop"))
        #expect(joined.joined == "laptop" && joined.device == "laptop")
        #expect(try fourth.feeds() == [feeds.url("/news.xml"), feeds.url("/talk.xml")])
        #expect(try fourth.episode(guid: "news-1").played && (try fourth.episode(guid: "talk-1").position) == 100)
        // Joining a device the account does not have is refused before anything is kept.
        let fifth = try Library(server, clock: clock)
        await #expect(throws: PlaybackError.self) { try await fifth.setUp(server, device: "x", linking: .join("no-such-device")) }
        #expect(try fifth.store.syncAccount() == nil)
    }

    @Test func actionsThatComeBeforeTheirEpisodesWaitForThemAndAreNeverDropped() async throws {
        let (server, feeds, phone) = try Self.start()
        defer { feeds.stop() }
        let clock = Self.clock()
        let desktop = try Library(server, clock: clock)
        _ = try await desktop.library.add(feedURL: URL(string: feeds.url("/growing.xml"))!)
        try await desktop.setUp(server, device: "desktop")

        // The phone heard episode 3, which the feed does not list here yet, and episode 2 of News,
        // which this library has not subscribed to.
        _ = try phone.uploadActions([
            Self.play(feeds.url("/growing.xml"), "https://cdn-one.example.org/grow/3.mp3", guid: "grow-3", at: clock.now, position: 300, total: 3600),
            Self.play(feeds.url("/news.xml"), "https://cdn-one.example.org/news/2.mp3", guid: "news-2", at: clock.now, position: 3600, total: 3600),
        ])
        let waiting = try await desktop.sync.syncNow()
        #expect(waiting.changedNothing && waiting.heldActions == 2, "\(waiting)")
        // Syncs that move "since" past them change nothing: the places still wait.
        clock.advance(30)
        _ = try phone.uploadActions([Self.play(feeds.url("/growing.xml"), "https://x.example/1.mp3", guid: "grow-1", at: clock.now, position: 5)])
        _ = try await desktop.sync.syncNow()
        #expect(try desktop.store.heldSyncActionCount() == 2)
        #expect(try desktop.episode(guid: "grow-1").position == 5)

        // The feed lists episode 3 now: the refresh brings it with its place.
        feeds.publish(3)
        _ = try await desktop.library.refresh(try desktop.store.podcasts()[0])
        #expect(try desktop.episode(guid: "grow-3").position == 300)
        #expect(try desktop.store.heldSyncActionCount() == 1)
        // Subscribed by hand: News's episode 2 comes finished.
        _ = try await desktop.library.add(feedURL: URL(string: feeds.url("/news.xml"))!)
        #expect(try desktop.episode(guid: "news-2").played)
        #expect(try desktop.store.heldSyncActionCount() == 0)
        // Applied from the server: nothing goes back as this library's own.
        #expect(try await desktop.sync.syncNow().sentActions == 0)
    }

    @Test func theFailuresOtherPlayersAreKnownForAreReplayed() async throws {
        let (server, feeds, phone) = try Self.start()
        defer { feeds.stop() }
        let clock = Self.clock()
        // The phone knows Talk at its old address and CDN; this library subscribes where it moved.
        _ = try phone.subscribe(add: [feeds.url("/talk.xml")])
        _ = try phone.uploadActions([
            Self.play(feeds.url("/talk.xml"), "https://cdn-one.example.org/talk/1.mp3", guid: "talk-1", at: clock.now, position: 600, started: 0, total: 3600),
            // -1 for the place itself is no place at all.
            Self.play(feeds.url("/talk.xml"), "https://cdn-one.example.org/talk/2.mp3", guid: "talk-2", at: clock.now, position: -1),
        ])
        let desktop = try Library(server, clock: clock)
        _ = try await desktop.library.add(feedURL: URL(string: feeds.url("/moved.xml"))!)
        try await desktop.setUp(server, device: "desktop", linking: PodcastSync.Linking.none)
        #expect(try desktop.feeds() == [feeds.url("/moved.xml")], "not linked: the phone's subscriptions stay the phone's")
        #expect(try desktop.episode(guid: "talk-1").position == 600, "a feed moved to another host is matched by guid")
        #expect(try desktop.episode(guid: "talk-2").position == 0)

        // Finished here, later.
        clock.advance(60)
        let one = try desktop.episode(guid: "talk-1")
        try desktop.store.savePosition(episodeID: one.id, position: 3600, duration: 3600)
        try desktop.store.markPlayed(episodeID: one.id)
        _ = try await desktop.sync.syncNow()

        // A re-download, here and on the phone (AntennaPod used to push "unplayed" with it).
        clock.advance(60)
        _ = try desktop.store.beginDownload(episodeID: one.id, fileName: "talk-1.mp3")
        try desktop.store.completeDownload(episodeID: one.id, bytes: 1000)
        _ = try phone.uploadActions([
            [
                "podcast": feeds.url("/talk.xml"), "episode": "https://cdn-one.example.org/talk/1.mp3", "guid": "talk-1", "action": "download",
                "timestamp": GpodderWire.timestampString(clock.now),
            ]
        ])
        let afterDownload = try await desktop.sync.syncNow()
        #expect(afterDownload.sentActions == 1)
        #expect(try desktop.episode(guid: "talk-1").played)
        let mine = try phone.downloadActions(since: 0)["actions"] as? [[String: Any]] ?? []
        #expect(!mine.contains { $0["device"] as? String == "desktop" && $0["action"] as? String == "new" }, "\(mine)")

        // A full resync replays the phone's old half-way play: the episode stays finished.
        let resync = try await desktop.sync.syncNow(full: true)
        #expect(resync.fullSync && resync.appliedActions == 0, "\(resync)")
        #expect(try desktop.episode(guid: "talk-1").played)
        #expect(try desktop.episode(guid: "talk-1").position == 3600)
    }

    @Test func twoLibrariesThatPlayOfflineEndAtTheLaterPlaceOnBoth() async throws {
        let (server, feeds, _) = try Self.start()
        defer { feeds.stop() }
        let clock = Self.clock()
        let laptop = try Library(server, clock: clock)
        let desktop = try Library(server, clock: clock)
        _ = try await laptop.library.add(feedURL: URL(string: feeds.url("/news.xml"))!)
        try await laptop.setUp(server, device: "laptop")
        try await desktop.setUp(server, device: "desktop")
        #expect(try desktop.feeds() == [feeds.url("/news.xml")])

        // Both offline: the desktop hears Episode 3 to 5:00 and Episode 1 to 2:00; later the
        // laptop hears Episode 3 to 8:20. The laptop comes online first.
        clock.advance(10)
        try desktop.store.savePosition(episodeID: try desktop.episode(guid: "news-3").id, position: 300, duration: 3600)
        try desktop.store.savePosition(episodeID: try desktop.episode(guid: "news-1").id, position: 120, duration: 3600)
        clock.advance(10)
        try laptop.store.savePosition(episodeID: try laptop.episode(guid: "news-3").id, position: 500, duration: 3600)
        _ = try await laptop.sync.syncNow()
        // The desktop's actions reach the server with times before the laptop's last answer.
        let desktopSync = try await desktop.sync.syncNow()
        #expect(desktopSync.appliedActions == 1 && desktopSync.sentActions == 1, "the later place wins; the older one is not sent: \(desktopSync)")
        let laptopSync = try await laptop.sync.syncNow()
        #expect(laptopSync.appliedActions == 1, "\(laptopSync)")
        for library in [laptop, desktop] {
            #expect(try library.episode(guid: "news-3").position == 500)
            #expect(try library.episode(guid: "news-1").position == 120, "an offline place uploaded late still arrives")
        }
        // Both up to date: a sync on either moves nothing and sends nothing.
        for library in [laptop, desktop] {
            let report = try await library.sync.syncNow()
            #expect(report.changedNothing && report.sentActions == 0, "\(report)")
        }
    }

    /// Each batch is marked sent as the server takes it, and what is sent twice is taken once.
    @Test func theOutboxSurvivesARestartAndGoesInOrderInBatches() async throws {
        let (server, feeds, phone) = try Self.start()
        defer { feeds.stop() }
        let clock = Self.clock()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-outbox-\(UUID().uuidString)")
        do {
            let store = try LibraryStore.open(directory: directory, now: { clock.now })
            let network = NetworkClient(clock: ImmediateClock(), seed: 5, breakers: HostCircuitBreakers(clock: TestClock<Duration>()))
            let library = PodcastLibrary(store: store, network: network)
            _ = try await library.add(feedURL: URL(string: feeds.url("/news.xml"))!)
            let sync = PodcastSync(library: library, password: Self.password, network: network, hostName: "test-host")
            try await sync.setUp(server: server.baseURL, username: Self.user, device: "laptop")
            for (n, position) in [(3, 30.0), (1, 10.0), (2, 20.0)] {
                clock.advance(1)
                let episode = try #require(try store.episodes(podcastID: store.podcasts()[0].id).first { $0.guid == "news-\(n)" })
                try store.savePosition(episodeID: episode.id, position: position, duration: 3600)
            }
        }
        // The process ends before it syncs; a new one opens the same library.
        let store = try LibraryStore.open(directory: directory, now: { clock.now })
        let network = NetworkClient(clock: ImmediateClock(), seed: 5, breakers: HostCircuitBreakers(clock: TestClock<Duration>()))
        let sync = PodcastSync(library: PodcastLibrary(store: store, network: network), password: Self.password, network: network)
        let pending = try store.pendingSync(device: "laptop")
        #expect(pending.actions.map(\.position) == [30, 10, 20], "oldest first")
        let report = try await sync.syncNow()
        #expect(report.sentActions == 3)
        let onServer = (try phone.downloadActions(since: 0)["actions"] as? [[String: Any]] ?? []).filter { $0["device"] as? String == "laptop" }
        #expect(onServer.compactMap { $0["position"] as? Int } == [30, 10, 20], "\(onServer)")
        // Sent again (an answer lost on the way): every device still ends at the same places.
        _ = try phone.uploadActions(onServer)
        let again = try await sync.syncNow()
        #expect(again.changedNothing && again.sentActions == 0, "\(again)")
        #expect(try store.episodes(podcastID: store.podcasts()[0].id).sorted { $0.guid < $1.guid }.map(\.position) == [10, 20, 30])
    }
}
