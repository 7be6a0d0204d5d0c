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

/// Podcast sync end to end: two Tonearm libraries, as two devices, synchronised through a loopback
/// server of the gpodder.net API (`GpodderServer`), with the feeds served by a real HTTP server;
/// and the failures other players are known for, replayed.
@Suite("Podcast sync between two libraries", .serialized, .blocking)
struct PodcastSyncTests {
    /// A wall clock the test moves, so which change is later is the test's decision.
    final class WallClock: Sendable {
        private let time: Mutex<Date>
        var now: Date { time.withLock { $0 } }
        init(start: Date = Date(timeIntervalSince1970: 1_790_000_000)) { time = Mutex(start) }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    /// One device: its own library directory and store, on the shared wall clock.
    struct Device {
        let store: LibraryStore
        let library: PodcastLibrary
        let sync: PodcastSync
        /// What the host's circuit breaker waits on.
        let breakerClock = TestClock<Duration>()

        init(
            _ server: GpodderServer, clock: WallClock, password: String? = nil, logger: Logger = .silent,
            options: PodcastSync.Options = PodcastSync.Options()
        ) throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-sync-\(UUID().uuidString)")
            store = try LibraryStore.open(directory: directory, now: { clock.now })
            let breakers = HostCircuitBreakers(clock: breakerClock)
            let network = NetworkClient(clock: ImmediateClock(), seed: 5, breakers: breakers, logger: logger)
            library = PodcastLibrary(store: store, network: network)
            sync = PodcastSync(
                library: library, password: password ?? server.password, network: network, logger: logger, hostName: "test-host",
                options: options)
        }

        @discardableResult
        func setUp(_ server: GpodderServer, device: String) async throws -> PodcastSync.SetUpReport {
            try await sync.setUp(server: server.baseURL, username: server.username, device: device)
        }

        func episode(guid: String) throws -> EpisodeRecord {
            try #require(try store.podcasts().flatMap { try store.episodes(podcastID: $0.id) }.first { $0.guid == guid })
        }
    }

    /// A feed of `count` hour-long episodes whose audio lives under `cdn`.
    static func feed(cdn: String, count: Int = 3, guids: Bool = true) -> Data {
        // Typed, or GRDB's `[SQL].joined` wins the overload.
        let items: String = (1...count).map { n -> String in
            let guid = guids ? "<guid isPermaLink=\"false\">show-episode-\(n)</guid>" : ""
            return """
                <item>\(guid)<title>Episode \(n)</title><pubDate>Tue, 0\(n) Jun 2025 04:00:00 GMT</pubDate>
                <itunes:duration>1:00:00</itunes:duration><enclosure url="\(cdn)/episode-\(n).mp3" length="1000" type="audio/mpeg"/></item>
                """
        }.joined(separator: "\n")
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><title>Synced Show</title><link>https://example.org/</link>
            \(items)
            </channel></rss>
            """.utf8)
    }

    /// Serves `/feed.xml` with audio on one CDN and `/moved.xml`, the same episodes on another.
    static func feedServer() throws -> TestHTTPServer {
        try TestHTTPServer { request in
            switch request.path {
            case "/feed.xml": return .complete(contentType: "application/rss+xml", body: feed(cdn: "https://cdn-one.example.org/audio"))
            case "/moved.xml": return .complete(contentType: "application/rss+xml", body: feed(cdn: "https://cdn-two.example.net/files"))
            case "/noguid.xml": return .complete(contentType: "application/rss+xml", body: feed(cdn: "https://cdn-one.example.org/audio", guids: false))
            default: return .complete(status: 404, contentType: "text/plain", body: Data("no".utf8))
            }
        }
    }

    @Test func subscribingOnOneDeviceSubscribesTheOther() async throws {
        let server = try GpodderServer()
        let feeds = try Self.feedServer()
        defer { server.stop(); feeds.stop() }
        let clock = WallClock()
        let laptop = try Device(server, clock: clock)
        let desktop = try Device(server, clock: clock)
        _ = try await laptop.library.add(feedURL: feeds.url("/feed.xml"))
        // Set-up ends with a first, full sync: the laptop's subscription goes, the desktop's comes.
        let sent = try await laptop.setUp(server, device: "laptop").firstSync
        #expect(sent.fullSync && sent.sentSubscriptionChanges == 1)
        #expect(server.subscriptions == [feeds.url("/feed.xml").absoluteString])
        let received = try await desktop.setUp(server, device: "desktop")
        #expect(server.devices == ["laptop": "Tonearm on test-host", "desktop": "Tonearm on test-host"])
        #expect(received.devices == nil, "this server keeps no device list")
        #expect(received.firstSync.subscribed == 1)
        #expect(try desktop.store.podcasts().map(\.feedURL) == [feeds.url("/feed.xml")])
        let got = try desktop.store.episodes(podcastID: desktop.store.podcasts()[0].id)
        #expect(got.count == 3, "\(got.map { ($0.guid, $0.title) })")

        // Removed on the desktop: gone from the laptop at its next sync, and not sent back.
        try desktop.store.removePodcast(id: try desktop.store.podcasts()[0].id)
        _ = try await desktop.sync.syncNow()
        let removed = try await laptop.sync.syncNow()
        #expect(removed.unsubscribed == 1)
        #expect(try laptop.store.podcasts().isEmpty)
        #expect(removed.sentSubscriptionChanges == 0)
        #expect(server.subscriptions.isEmpty)
    }

    @Test func listeningTo12m34sOnOneDeviceResumesThereOnTheOther() async throws {
        let server = try GpodderServer()
        let feeds = try Self.feedServer()
        defer { server.stop(); feeds.stop() }
        let clock = WallClock()
        let laptop = try Device(server, clock: clock)
        let desktop = try Device(server, clock: clock)
        for device in [laptop, desktop] { _ = try await device.library.add(feedURL: feeds.url("/feed.xml")) }
        try await laptop.setUp(server, device: "laptop")
        try await desktop.setUp(server, device: "desktop")
        _ = try await desktop.sync.syncNow()

        clock.advance(60)
        try laptop.store.savePosition(episodeID: try laptop.episode(guid: "show-episode-2").id, position: 754.4, duration: 3600)
        let sent = try await laptop.sync.syncNow()
        #expect(sent.sentActions == 1)
        let play = try #require(server.actions.last)
        #expect(play["action"] as? String == "play")
        #expect(play["position"] as? Int == 754)
        #expect(play["total"] as? Int == 3600)
        #expect(play["started"] as? Int == 0)
        #expect(play["guid"] as? String == "show-episode-2")
        #expect(play["device"] as? String == "laptop")

        let received = try await desktop.sync.syncNow()
        #expect(received.appliedActions == 1)
        let onDesktop = try desktop.episode(guid: "show-episode-2")
        #expect(try desktop.store.resumePosition(episodeID: onDesktop.id) == 754)
        #expect(!onDesktop.played)
        // Applied from the server: not sent back as the desktop's own.
        #expect(try await desktop.sync.syncNow().sentActions == 0)

        // Later the desktop goes on to the end: the laptop hears it finished.
        clock.advance(600)
        try desktop.store.savePosition(episodeID: onDesktop.id, position: 3600, duration: 3600)
        try desktop.store.markPlayed(episodeID: onDesktop.id)
        _ = try await desktop.sync.syncNow()
        _ = try await laptop.sync.syncNow()
        #expect(try laptop.episode(guid: "show-episode-2").played)
        #expect((server.actions.last?["started"] as? Int) == 754)
    }

    @Test func positionsGoToTheLatestActionByTimestampInWhateverOrderTheServerListsThem() async throws {
        let server = try GpodderServer()
        let feeds = try Self.feedServer()
        defer { server.stop(); feeds.stop() }
        let clock = WallClock()
        let device = try Device(server, clock: clock)
        _ = try await device.library.add(feedURL: feeds.url("/feed.xml"))
        try await device.setUp(server, device: "desktop")
        let podcast = feeds.url("/feed.xml").absoluteString
        func play(_ position: Int, at stamp: String) -> [String: Any] {
            [
                "podcast": podcast, "episode": "https://cdn-one.example.org/audio/episode-1.mp3", "guid": "show-episode-1", "action": "play",
                "timestamp": stamp, "started": 0, "position": position, "total": 3600, "device": "phone",
            ]
        }
        server.inject([play(1200, at: "2026-09-21T10:00:00"), play(300, at: "2026-09-21T09:00:00"), play(900, at: "2026-09-21T09:30:00")])
        let report = try await device.sync.syncNow()
        #expect(report.receivedActions == 3)
        #expect(report.appliedActions == 1)
        #expect(try device.episode(guid: "show-episode-1").position == 1200)

        // What the listener did here after the phone's last action stays, and goes to the server.
        clock.advance(86_400 * 400)
        try device.store.savePosition(episodeID: try device.episode(guid: "show-episode-1").id, position: 1500, duration: nil)
        server.inject([play(60, at: "2026-09-22T10:00:00")])
        let second = try await device.sync.syncNow()
        #expect(second.appliedActions == 0)
        #expect(try device.episode(guid: "show-episode-1").position == 1500)
        #expect(second.sentActions == 1)
        #expect(server.actions.last?["position"] as? Int == 1500)
    }

    @Test func aFullResyncNeverMarksAPlayedEpisodeUnplayed() async throws {
        let server = try GpodderServer()
        let feeds = try Self.feedServer()
        defer { server.stop(); feeds.stop() }
        let clock = WallClock()
        let device = try Device(server, clock: clock)
        _ = try await device.library.add(feedURL: feeds.url("/feed.xml"))
        try await device.setUp(server, device: "desktop")
        let episode = try device.episode(guid: "show-episode-3")
        // Years of history on the server: the phone once stopped half way...
        server.inject([
            [
                "podcast": feeds.url("/feed.xml").absoluteString, "episode": "https://cdn-one.example.org/audio/episode-3.mp3",
                "guid": "show-episode-3", "action": "play", "timestamp": "2026-09-21T10:00:00", "started": 0, "position": 1800,
                "total": 3600,
            ]
        ])
        _ = try await device.sync.syncNow()
        #expect(try device.episode(guid: "show-episode-3").position == 1800)
        // ...then the listener finished it here, later.
        clock.advance(86_400 * 400)
        try device.store.markPlayed(episodeID: episode.id)
        _ = try await device.sync.syncNow()
        // A full resync: everything from the start again, the old half-way play included.
        try device.store.recordSync(subscriptionsSince: 0, actionsSince: 0)
        let resync = try await device.sync.syncNow()
        #expect(resync.receivedActions == 2)
        #expect(resync.appliedActions == 0)
        #expect(try device.episode(guid: "show-episode-3").played)
        #expect(try device.store.podcasts().count == 1)
    }

    @Test func brokenActionsFromOtherClientsAreDroppedOneByOneAndTheRestApply() async throws {
        let server = try GpodderServer()
        let feeds = try Self.feedServer()
        defer { server.stop(); feeds.stop() }
        let device = try Device(server, clock: WallClock())
        _ = try await device.library.add(feedURL: feeds.url("/feed.xml"))
        try await device.setUp(server, device: "desktop")
        let podcast = feeds.url("/feed.xml").absoluteString
        let audio = "https://cdn-one.example.org/audio/episode-1.mp3"
        func play(_ changes: [String: Any]) -> [String: Any] {
            var action: [String: Any] = [
                "podcast": podcast, "episode": audio, "guid": "show-episode-1", "action": "play", "timestamp": "2026-09-21T10:00:00",
                "started": 0, "position": 600, "total": 3600,
            ]
            for (key, value) in changes { action[key] = value }
            return action
        }
        server.inject([
            play(["position": -1]),  // "unknown", as some clients write it
            play(["total": -1]),
            play(["started": NSNull()]),
            play(["episode": ""]),
            play(["podcast": "javascript:alert(1)"]),
            play(["timestamp": "yesterday"]),
            play(["action": "flattr"]),
            play(["position": 4000]),  // past the end
            play(["position": "900", "timestamp": "2026-09-21T11:00:00"]),  // numbers as strings: read
        ])
        let report = try await device.sync.syncNow()
        // A length of -1, no start, a place past the end: the place stands (clamped to the end).
        #expect(report.receivedActions == 9)
        #expect(report.droppedActions == 5)
        #expect(report.appliedActions == 1)
        #expect(try device.episode(guid: "show-episode-1").position == 900)
    }

    @Test func noActionIsEverSentWithMinusOneOrEmptyFields() async throws {
        let server = try GpodderServer()
        let feeds = try Self.feedServer()
        defer { server.stop(); feeds.stop() }
        let clock = WallClock()
        let device = try Device(server, clock: clock)
        let podcast = try await device.library.add(feedURL: feeds.url("/feed.xml"))
        try await device.setUp(server, device: "desktop")
        let episodes = try device.store.episodes(podcastID: podcast.id)
        // Opened and left at 0, and a stored length of nothing: neither has a truthful play to send.
        try device.store.savePosition(episodeID: episodes[0].id, position: 0, duration: nil)
        try device.store.savePosition(episodeID: episodes[1].id, position: 95.7, duration: 3600)
        try device.store.markAllPlayed(podcastID: podcast.id)
        let report = try await device.sync.syncNow()
        #expect(report.sentActions == 3)
        for action in server.actions {
            for key in ["podcast", "episode", "guid", "timestamp", "device"] {
                #expect((action[key] as? String)?.isEmpty == false, "\(key) in \(action)")
            }
            #expect(action["action"] as? String == "play")
            for key in ["started", "position", "total"] {
                let value = try #require(action[key] as? Int, "\(key) in \(action)")
                #expect(value >= 0)
            }
            #expect((action["position"] as? Int) == (action["total"] as? Int))
        }
        // Nothing changed since: nothing more goes.
        #expect(try await device.sync.syncNow().sentActions == 0)

        // Marked unplayed after the server heard "played": a `new` action, without numbers.
        clock.advance(30)
        try device.store.markPlayed(episodeID: episodes[2].id, false)
        try device.store.savePosition(episodeID: episodes[2].id, position: 0, duration: nil)
        #expect(try await device.sync.syncNow().sentActions == 1)
        let new = try #require(server.actions.last)
        #expect(new["action"] as? String == "new")
        #expect(new["position"] == nil && new["total"] == nil && new["started"] == nil)
    }

    @Test func aPodcastThatMovedItsFilesToAnotherCDNKeepsItsHistory() async throws {
        let server = try GpodderServer()
        let moved = Mutex(false)
        // One feed address; its episodes' files move to another CDN between the two devices' fetches.
        let feeds = try TestHTTPServer { request in
            guard request.path == "/show.xml" else { return .complete(status: 404, contentType: "text/plain", body: Data()) }
            let cdn = moved.withLock { $0 } ? "https://cdn-two.example.net/files" : "https://cdn-one.example.org/audio"
            return .complete(contentType: "application/rss+xml", body: Self.feed(cdn: cdn))
        }
        defer { server.stop(); feeds.stop() }
        let clock = WallClock()
        let old = try Device(server, clock: clock)
        let new = try Device(server, clock: clock)
        _ = try await old.library.add(feedURL: feeds.url("/show.xml"))
        moved.withLock { $0 = true }
        _ = try await new.library.add(feedURL: feeds.url("/show.xml"))
        try await old.setUp(server, device: "old")
        try await new.setUp(server, device: "new")
        try old.store.savePosition(episodeID: try old.episode(guid: "show-episode-1").id, position: 754, duration: 3600)
        _ = try await old.sync.syncNow()
        #expect(server.actions.last?["episode"] as? String == "https://cdn-one.example.org/audio/episode-1.mp3")
        // Same guids, other file addresses: found by guid.
        let report = try await new.sync.syncNow()
        #expect(report.appliedActions == 1)
        #expect(try new.episode(guid: "show-episode-1").audioURL?.host == "cdn-two.example.net")
        #expect(try new.episode(guid: "show-episode-1").position == 754)

        // A client that sends no guid: found by the file's address.
        let noGUIDs = try Self.feedServer()
        defer { noGUIDs.stop() }
        let third = try Device(server, clock: clock)
        _ = try await third.library.add(feedURL: noGUIDs.url("/noguid.xml"))
        try await third.setUp(server, device: "third")
        server.inject([
            [
                "podcast": "https://elsewhere.example.com/feed", "episode": "https://cdn-one.example.org/audio/episode-2.mp3",
                "action": "play", "timestamp": "2026-09-21T10:00:00", "started": 0, "position": 321, "total": 3600,
            ]
        ])
        _ = try await third.sync.syncNow()
        let second = try #require(try third.store.episodes(podcastID: third.store.podcasts()[0].id).first { $0.title == "Episode 2" })
        #expect(second.position == 321)
    }

    @Test func offlineChangesWaitInTheLibraryAndGoWhenTheServerIsBack() async throws {
        let server = try GpodderServer()
        let feeds = try Self.feedServer()
        defer { server.stop(); feeds.stop() }
        let clock = WallClock()
        let device = try Device(server, clock: clock)
        _ = try await device.library.add(feedURL: feeds.url("/feed.xml"))
        try await device.setUp(server, device: "laptop")
        _ = try await device.sync.syncNow()
        server.down = true
        clock.advance(60)
        try device.store.savePosition(episodeID: try device.episode(guid: "show-episode-1").id, position: 42, duration: 3600)
        let before = server.requests.count
        await #expect(throws: PlaybackError.self) { try await device.sync.syncNow() }
        // The network preset's three tries, then the error; the change stays queued.
        #expect(server.requests.count - before == 3)
        #expect(try device.store.pendingSync(device: "laptop").actions.count == 1)
        // More failures open the host's breaker: no request reaches the server at all.
        await #expect(throws: PlaybackError.self) { try await device.sync.syncNow() }
        let open = server.requests.count
        do {
            _ = try await device.sync.syncNow()
            Issue.record("a sync while the breaker is open succeeded")
        } catch {
            #expect(error.code == .circuitOpen)
        }
        #expect(server.requests.count == open)

        server.down = false
        await device.breakerClock.advance(by: .seconds(ResilienceDefaults.breakerOpenDuration + 1))
        let report = try await device.sync.syncNow()
        #expect(report.sentActions == 1)
        #expect(server.actions.last?["position"] as? Int == 42)
        #expect(try device.store.pendingSync(device: "laptop").actions.isEmpty)
    }

    /// A server that says "too many requests" is waited for as it asks (on the injected clock),
    /// and the sync then goes through; nothing is sent twice.
    @Test func aRateLimitIsWaitedOutAndTheSyncGoesThrough() async throws {
        let server = try GpodderServer()
        let feeds = try Self.feedServer()
        defer { server.stop(); feeds.stop() }
        let clock = WallClock()
        let device = try Device(server, clock: clock)
        _ = try await device.library.add(feedURL: feeds.url("/feed.xml"))
        try await device.setUp(server, device: "laptop")
        clock.advance(60)
        try device.store.savePosition(episodeID: try device.episode(guid: "show-episode-1").id, position: 42, duration: 3600)
        server.rateLimited = 2
        let before = server.requests.count
        let report = try await device.sync.syncNow()
        #expect(report.sentActions == 1)
        #expect(server.rateLimited == 0)
        // Two refusals, then the run's own requests: sync groups, subscriptions, actions, the upload.
        #expect(server.requests.count - before == 2 + 4)
        #expect(server.actions.filter { $0["position"] as? Int == 42 }.count == 1)
    }

    /// The sync that runs by itself after a playback is quick: two tries of a server that is
    /// down, not the three of a sync the listener asked for, so the command ends soon.
    @Test func theBackgroundSyncGivesUpQuickly() async throws {
        let server = try GpodderServer()
        let feeds = try Self.feedServer()
        defer { server.stop(); feeds.stop() }
        let device = try Device(server, clock: WallClock(), options: .background)
        try await device.setUp(server, device: "laptop")
        _ = try await device.library.add(feedURL: feeds.url("/feed.xml"))
        server.down = true
        let before = server.requests.count
        await #expect(throws: PlaybackError.self) { try await device.sync.syncNow() }
        #expect(server.requests.count - before == BackoffPolicy.quick.maxAttempts)
        #expect(try device.store.pendingSync(device: "laptop").added.count == 1)
    }

    @Test func aWrongPasswordIsRefusedAtSetUpAndNothingIsKept() async throws {
        let server = try GpodderServer()
        defer { server.stop() }
        let device = try Device(server, clock: WallClock(), password: "wrong")
        do {
            try await device.setUp(server, device: "laptop")
            Issue.record("set up with a wrong password")
        } catch let error as PlaybackError {
            #expect(error.code == .httpUnauthorized)
            #expect(!error.isRetryable)
        }
        #expect(try device.store.syncAccount() == nil)
        #expect(server.requests.count == 1)
    }

    @Test func aCaptivePortalPageIsATypedErrorAndNothingIsLost() async throws {
        let server = try GpodderServer()
        let feeds = try Self.feedServer()
        defer { server.stop(); feeds.stop() }
        let device = try Device(server, clock: WallClock())
        try await device.setUp(server, device: "laptop")
        _ = try await device.library.add(feedURL: feeds.url("/feed.xml"))
        server.answersHTML = true
        do {
            _ = try await device.sync.syncNow()
            Issue.record("an HTML page was taken for the API's answer")
        } catch {
            #expect(error.code == .malformedData)
        }
        #expect(try device.store.pendingSync(device: "laptop").added == [feeds.url("/feed.xml").absoluteString])
        server.answersHTML = false
        #expect(try await device.sync.syncNow().sentSubscriptionChanges == 1)
    }

    @Test func aPlainHTTPServerOnAnotherMachineIsRefusedBeforeThePasswordLeaves() async throws {
        let server = try GpodderServer()
        defer { server.stop() }
        let device = try Device(server, clock: WallClock())
        for address in ["http://sync.example.org/", "ftp://127.0.0.1/", "https://user:pw@sync.example.org/"] {
            await #expect(throws: PlaybackError.self) {
                try await device.sync.setUp(server: URL(string: address)!, username: "listener", device: "laptop")
            }
        }
        await #expect(throws: PlaybackError.self) { try await device.sync.setUp(server: server.baseURL, username: "a/b", device: "laptop") }
        #expect(server.requests.isEmpty)
    }

    @Test func thePasswordAndTheUserNameNeverReachTheLog() async throws {
        let server = try GpodderServer(username: "ivan.petrov", password: "correct horse battery")
        let feeds = try Self.feedServer()
        defer { server.stop(); feeds.stop() }
        let capture = LogCapture()
        let device = try Device(server, clock: WallClock(), logger: capture.logger())
        _ = try await device.library.add(feedURL: feeds.url("/feed.xml"))
        try await device.setUp(server, device: "laptop")
        _ = try await device.sync.syncNow()
        let text = capture.all.map(\.allText).joined(separator: "\n")
        #expect(text.contains("sync done"))
        #expect(text.contains("HTTP request"))
        for secret in ["correct horse battery", "ivan.petrov", Data("ivan.petrov:correct horse battery".utf8).base64EncodedString()] {
            #expect(!text.contains(secret))
        }
    }

    @Test func aDownloadAndItsDeletionAreSentAsActions() async throws {
        let server = try GpodderServer()
        let feeds = try Self.feedServer()
        defer { server.stop(); feeds.stop() }
        let device = try Device(server, clock: WallClock())
        _ = try await device.library.add(feedURL: feeds.url("/feed.xml"))
        try await device.setUp(server, device: "laptop")
        let episode = try device.episode(guid: "show-episode-1")
        _ = try device.store.beginDownload(episodeID: episode.id, fileName: "one.mp3")
        try device.store.completeDownload(episodeID: episode.id, bytes: 1000)
        try device.store.removeDownload(episodeID: episode.id)
        #expect(try await device.sync.syncNow().sentActions == 2)
        #expect(server.actions.compactMap { $0["action"] as? String } == ["download", "delete"])
        #expect(server.actions.allSatisfy { $0["episode"] as? String == "https://cdn-one.example.org/audio/episode-1.mp3" })
    }
}
