import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit
import Services
import Streaming
import Clocks
import Synchronization
import TerminalUI
import TestProcesses
import Testing

@testable import TerminalApp

/// The library screen's controller driven as a terminal would drive it, keys in and frames out,
/// with no terminal: a real library in a temporary directory, a real player on the null output.
@Suite("Library controller", .serialized, .blocking)
struct LibraryControllerTests {
    /// A library in a directory of its own, with two 20 s sessions of a quiet tone.
    final class Fixture {
        let directory: URL
        let library: LibraryContext
        let controller: LibraryController
        /// Every state the player published, in order.
        let states = StateLog()

        init(directory stationDirectory: StationDirectory? = nil) async throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-controller-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            library = try await LibraryContext.open(directory: directory.appendingPathComponent("data"), logger: Logger(label: "test"))
            let states = self.states
            controller = LibraryController(
                library: library, output: .null, language: .english, bindings: .standard, logger: Logger(label: "test"),
                observer: { update in
                    if case .state(let state, _, _) = update { states.names.withLock { $0.append(state.name) } }
                }, directory: stationDirectory)
        }

        /// A session file playing a 20 s tone, kept in the library under `name`.
        func addSession(_ name: String) throws {
            let audio = directory.appendingPathComponent("\(name).wav")
            let tone = { (i: Int) in Int16(2_000 * sin(Double(i) * 2 * .pi * 440 / 48_000)) }
            try PCMWAV.data(frames: 48_000 * 20, left: tone, right: tone).write(to: audio)
            let json = #"{"name": "\#(name)", "stages": [{"source": "\#(audio.path)", "title": "\#(name) stage"}]}"#
            let file = directory.appendingPathComponent("\(name).json")
            try Data(json.utf8).write(to: file)
            _ = try library.store.addSession(name: name, path: file.path, json: json)
        }

        func press(_ keys: Key...) { keys.forEach(controller.handle) }

        func type(_ text: String) { text.forEach { controller.handle(.character($0)) } }

        var screen: String { controller.frame(tick: 0, width: 100, height: 30).text }

        var playerState: PlayerState { controller.model.withLock { $0.player.state } }

        /// Waits (without a clock assertion) until `condition` holds, up to a generous limit.
        func until(_ what: String, _ condition: () -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(20)
            while !condition() {
                guard ContinuousClock.now < deadline else { throw Failure(what) }
                try await Task.sleep(for: .milliseconds(10))
            }
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    final class StateLog: Sendable {
        let names = Mutex<[PlayerState.Name]>([])
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ what: String) { description = "never happened: \(what)" }
    }

    @Test func anEmptyLibraryAddsAStationFromThePrompt() async throws {
        let f = try await Fixture()
        f.controller.load()
        #expect(f.screen.contains("No stations yet"))
        f.press(.character("a"))
        f.type("Night Jazz http://127.0.0.1:9/jazz")
        f.press(.enter)
        try await f.until("the station is in the library") { (try? f.library.store.stations().count) == 1 }
        try await f.until("the list shows it") { f.screen.contains("Night Jazz") }
        #expect(try f.library.store.stations().first?.url == URL(string: "http://127.0.0.1:9/jazz"))
    }

    /// A new listener finds stations without knowing an address: `/` on the empty list (or `f`
    /// anywhere) asks the directory, Enter plays a result and counts a click, `a` keeps it.
    @Test func theDirectoryIsSearchedPlayedFromAndKeptFrom() async throws {
        let stream = try TestHTTPServer { _ in .complete(status: 503, contentType: "text/plain", body: Data("down".utf8)) }
        defer { stream.stop() }
        let server = try DirectoryServer(streamBase: stream.baseURL)
        defer { server.stop() }
        let f = try await Fixture(directory: StationDirectory(
            configuration: .init(servers: [server.baseURL], cacheDirectory: nil), network: NetworkClient(breakers: nil)))
        f.controller.load()
        #expect(f.screen.contains("[f] Find stations"), "screen:\n\(f.screen)")
        f.press(.character("/"))
        #expect(f.screen.contains("Find stations (words of the name"))
        f.type("jazz country:DE")
        f.press(.enter)
        try await f.until("the results") { f.screen.contains("Jazz Radio Blues") && f.screen.contains("HLS Jazz") }
        #expect(f.screen.contains("◂ Directory: jazz country:DE"))
        #expect(f.screen.contains("MP3 128k · FR · jazz, blues"))
        #expect(server.searches.last?.uri.contains("countrycode=DE") == true)

        f.press(.character("a"))
        #expect(try f.library.store.stations().map(\.directoryID) == ["96062a7b-0601-11e8-ae97-52543be04c81"])
        #expect(f.screen.contains("✓ MP3 128k"))
        f.press(.enter)
        try await f.until("the click") { server.clicks == ["96062a7b-0601-11e8-ae97-52543be04c81"] }
        try await f.until("the stream was asked for") { stream.requests.contains { $0.path == "/blues" } }
        f.controller.model.withLock { $0.nowPlayingOpen = false }

        // Back to the library's stations; `f` from another tab comes back to the Stations tab.
        f.press(.escape)
        #expect(f.screen.contains("Jazz Radio Blues") && !f.screen.contains("HLS Jazz"))
        f.press(.tab, .character("f"))
        #expect(f.controller.model.withLock { $0.tab } == .stations)
        f.type("nothing-matches")
        f.press(.enter)
        try await f.until("the answer") { f.screen.contains("Directory: nothing-matches") && !f.screen.contains("Loading") }
        await f.controller.finish()
    }

    /// Titles heard on a library station land in History; `l` on Now Playing likes the song
    /// playing, `l` in History takes the like back, and Favourites lists what is liked.
    @Test func heardTitlesAreKeptAndLikedFromNowPlayingAndHistory() async throws {
        let audio = try FFmpegFixture.make(
            ["-f", "lavfi", "-i", "sine=frequency=440:duration=20:sample_rate=44100", "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k"],
            fileName: "tone.mp3").get()
        let body = IcyBody.make(audio, metaint: 8_000, titles: ["Night Band - Slow Song"])
        let server = try TestHTTPServer { _ in
            TestHTTPServer.Response(
                status: 200, headers: [("Content-Type", "audio/mpeg"), ("icy-name", "Fixture FM"), ("icy-metaint", "8000")],
                body: [.bytes(body), .hold])
        }
        defer { server.stop() }
        let f = try await Fixture()
        _ = try f.library.store.addStation(name: "Night FM", url: server.url("/live"))
        f.controller.load()
        f.press(.enter)
        try await f.until("the title") { f.controller.model.withLock { $0.player.metadata?.title } == "Slow Song" }
        try await f.until("the title in the history") { (try? f.library.store.history().first?.title) == "Slow Song" }
        #expect(try f.library.store.history().first?.station == "Night FM")
        f.press(.character("l"))
        #expect(try f.library.store.favourites().map(\.song) == ["Night Band – Slow Song"])
        #expect(f.screen.contains("♥ Liked"), "screen:\n\(f.screen)")
        await f.controller.finish()

        f.press(.escape)
        f.controller.model.withLock { $0.nowPlayingOpen = false }
        f.press(.tab, .tab, .tab, .tab)
        #expect(f.controller.model.withLock { $0.tab } == .history)
        #expect(f.screen.contains("♥ Night Band – Slow Song") && f.screen.contains("Night FM ·"), "screen:\n\(f.screen)")
        f.press(.character("l"))
        #expect(try f.library.store.favourites().isEmpty)
        #expect(!f.screen.contains("♥ Night Band"))
        f.press(.character("l"))
        f.press(.tab)
        #expect(f.controller.model.withLock { $0.tab } == .favourites)
        #expect(f.screen.contains("♥ Night Band – Slow Song"))
        f.press(.character("l"))
        #expect(f.screen.contains("No favourites yet"))
    }

    @Test func aDirectoryThatIsDownIsTheListsErrorWithTryAgain() async throws {
        let server = try DirectoryServer(failing: true)
        defer { server.stop() }
        let f = try await Fixture(directory: StationDirectory(
            configuration: .init(servers: [server.baseURL], cacheDirectory: nil), network: NetworkClient(clock: ImmediateClock(), breakers: nil)))
        f.controller.load()
        f.press(.character("f"))
        f.type("jazz")
        f.press(.enter)
        try await f.until("the error") { f.controller.model.withLock { $0.list.error != nil } }
        #expect(f.controller.model.withLock { $0.list.error?.code } == .httpRetryable)
        let asked = server.searches.count
        f.press(.character("r"))
        try await f.until("asked again") { server.searches.count > asked }
        #expect(f.controller.model.withLock { $0.directoryQuery } == "jazz")
    }

    @Test func aStationWithoutAnAddressIsRefusedWithAnAlert() async throws {
        let f = try await Fixture()
        f.controller.load()
        f.press(.character("a"))
        f.type("justaname")
        f.press(.enter)
        try await f.until("the alert") { f.controller.model.withLock { $0.alert != nil } }
        #expect(try f.library.store.stations().isEmpty)
        f.press(.enter)
        #expect(f.controller.model.withLock { $0.alert == nil })
    }

    @Test func tabsSearchAndSelectionMoveOverTheSessions() async throws {
        let f = try await Fixture()
        try f.addSession("Morning")
        try f.addSession("Evening")
        f.controller.load()
        f.press(.tab, .tab, .tab)
        #expect(f.controller.model.withLock { $0.tab } == .sessions)
        #expect(f.screen.contains("Morning") && f.screen.contains("Evening"))
        f.press(.character("/"))
        f.type("eve")
        f.press(.enter)
        #expect(f.screen.contains("Evening") && !f.screen.contains("Morning"))
        f.press(.escape)
        #expect(f.screen.contains("Morning"))
    }

    /// The Podcasts tab shows each podcast's unplayed episodes and the time silence trimming saved.
    @Test func thePodcastsTabShowsTheTimeTrimmingSaved() async throws {
        let f = try await Fixture()
        let episodes = (1...2).map { number in
            FeedEpisode(
                guid: "ep-\(number)", title: "Episode \(number)", duration: 1_800,
                enclosure: Enclosure(url: URL(string: "https://cdn.example.org/\(number).mp3")!))
        }
        let podcast = try f.library.store.addPodcast(
            feedURL: URL(string: "https://example.org/feed.xml")!, feed: PodcastFeed(title: "Rivers", episodes: episodes),
            validators: .none)
        for episode in try f.library.store.episodes(podcastID: podcast.id) {
            try f.library.store.addTrimmedSilence(episodeID: episode.id, seconds: 95)
        }
        f.controller.load()
        f.press(.tab)
        #expect(f.controller.model.withLock { $0.tab } == .podcasts)
        #expect(f.screen.contains("2/2  saved 3:10"), "screen:\n\(f.screen)")
    }

    /// `d` on an episode keeps it on disk in the background: the Episodes list says so (its hint
    /// names the key), and a download the server refuses is an alert with the download's wording.
    @Test func dDownloadsTheSelectedEpisodeAndTheListSaysSo() async throws {
        let f = try await Fixture()
        let audio = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let server = try TestHTTPServer { request in
            request.path == "/1.mp3" ? .file(audio, for: request) : .init(status: 404, headers: [("Content-Length", "0")])
        }
        defer { server.stop() }
        let episodes = [
            FeedEpisode(guid: "ep-1", title: "Kept Episode", enclosure: Enclosure(url: server.url("/1.mp3"))),
            FeedEpisode(guid: "ep-2", title: "Missing Episode", enclosure: Enclosure(url: server.url("/2.mp3"))),
        ]
        let podcast = try f.library.store.addPodcast(
            feedURL: URL(string: "https://example.org/feed.xml")!, feed: PodcastFeed(title: "Trains", episodes: episodes), validators: .none)
        let ids = try f.library.store.episodes(podcastID: podcast.id).map(\.id)
        f.controller.load()
        f.press(.tab, .enter)
        try await f.until("the episodes are listed") { f.screen.contains("Kept Episode") }
        #expect(f.screen.contains("d Download"), "screen:\n\(f.screen)")
        f.press(.character("d"))
        try await f.until("the episode is listed as offline") { f.screen.contains("offline") }
        #expect(try f.library.store.episode(id: ids[0]).downloaded)
        #expect(f.library.downloads.playableFile(episodeID: ids[0]) != nil)

        f.press(.down, .character("d"))
        try await f.until("the refused download is an alert") { f.controller.model.withLock { $0.alert != nil } }
        #expect(f.controller.model.withLock { $0.alert?.code } == .httpNotFound)
        #expect(f.screen.contains("download failed"), "screen:\n\(f.screen)")
    }

    /// `u` puts episodes and sessions on the queue, the Up Next tab lists them in order, `K`/`J`
    /// move an entry, `X` takes one off, and Enter plays the queue from the entry selected; `m`
    /// marks an episode played and `M` all of a podcast's, and the Podcasts tab counts what is new.
    @Test func theQueueIsFilledReorderedPlayedAndEpisodesMarked() async throws {
        let f = try await Fixture()
        try f.addSession("Morning")
        let episodes = (1...3).map { n in
            FeedEpisode(guid: "ep-\(n)", title: "Talk \(n)", enclosure: Enclosure(url: URL(string: "https://cdn.example.org/\(n).mp3")!))
        }
        let podcast = try f.library.store.addPodcast(
            feedURL: URL(string: "https://example.org/talks.xml")!, feed: PodcastFeed(title: "Talks", episodes: episodes), validators: .none)
        f.controller.load()
        f.press(.tab)
        #expect(f.screen.contains("3 new  3/3"), "screen:\n\(f.screen)")
        f.press(.enter)
        try await f.until("the episodes are listed") { f.screen.contains("Talk 1") }
        #expect(f.screen.contains("u Queue"), "screen:\n\(f.screen)")
        f.press(.character("u"), .down, .character("u"), .character("u"))
        // Twice is refused with an alert; the queue keeps one entry per episode.
        try await f.until("the second u on one episode is an alert") { f.controller.model.withLock { $0.alert?.code == .alreadyInLibrary } }
        f.press(.enter)
        f.press(.down, .character("m"))
        #expect(try f.library.store.episodes(podcastID: podcast.id).filter(\.played).map(\.title) == ["Talk 3"])
        f.press(.escape, .character("M"))
        #expect(try f.library.store.episodes(podcastID: podcast.id).allSatisfy(\.played))
        #expect(f.screen.contains("0/3") && !f.screen.contains(" new"), "screen:\n\(f.screen)")

        f.press(.tab)
        #expect(f.controller.model.withLock { $0.tab } == .queue)
        #expect(f.screen.contains("1. Talk 1") && f.screen.contains("2. Talk 2"), "screen:\n\(f.screen)")
        f.press(.down, .character("K"))
        #expect(try f.library.store.queue().map(\.title) == ["Talk 2", "Talk 1"])
        #expect(f.controller.model.withLock { $0.selection } == 0, "the selection moves with the entry")
        f.press(.character("X"))
        #expect(try f.library.store.queue().map(\.title) == ["Talk 1"])
        f.press(.tab)
        #expect(f.controller.model.withLock { $0.tab } == .sessions)
        f.press(.character("u"), .left)
        #expect(try f.library.store.queue().map(\.title) == ["Talk 1", "Morning"])
        // Enter on the session's entry plays the queue from there: the session plays.
        f.press(.down, .enter)
        try await f.until("the queued session plays") { f.playerState.currentTrack?.title == "Morning stage" && f.playerState.name == .playing }
        await f.controller.finish()
    }

    /// `X` asks before removing, naming what goes; `n` keeps it, `y` takes it off the list, `U`
    /// brings it back, and the library loses it only when the screen closes. `e` renames a station.
    @Test func removalIsConfirmedByNameUndoableAndRenamingWorks() async throws {
        let f = try await Fixture()
        _ = try f.library.store.addStation(name: "Alpha FM", url: URL(string: "http://127.0.0.1:9/a")!)
        _ = try f.library.store.addStation(name: "Beta FM", url: URL(string: "http://127.0.0.1:9/b")!)
        f.controller.load()
        #expect(f.screen.contains("▸ Alpha FM"), "screen:\n\(f.screen)")
        f.press(.character("X"))
        #expect(f.screen.contains("Remove “Alpha FM” from the library? y / n"), "screen:\n\(f.screen)")
        f.press(.character("n"))
        #expect(f.screen.contains("Alpha FM") && !f.screen.contains("Remove “"), "screen:\n\(f.screen)")
        f.press(.character("X"), .character("y"))
        #expect(f.controller.model.withLock { $0.list.items.map(\.title) } == ["Beta FM"])
        #expect(f.screen.contains("U Undo removing Alpha FM"), "screen:\n\(f.screen)")
        #expect(try f.library.store.stations().count == 2, "kept until the screen closes")
        f.press(.character("U"))
        #expect(f.screen.contains("Alpha FM") && !f.screen.contains("Undo removing"), "screen:\n\(f.screen)")

        // Renaming: the prompt starts with the name; what is typed replaces it.
        f.press(.character("e"))
        #expect(f.screen.contains("New name: Alpha FM"), "screen:\n\(f.screen)")
        for _ in 0..<2 { f.press(.backspace) }
        f.type("Radio")
        f.press(.enter)
        #expect(try f.library.store.stations().map(\.name).contains("Alpha Radio"))
        f.press(.down)
        #expect(f.controller.model.withLock { ($0.selection, $0.prompt?.text, $0.search) } == (1, nil, nil))
        f.press(.character("e"))
        #expect(f.screen.contains("New name: Beta FM"), "screen:\n\(f.screen)")
        for _ in 0..<7 { f.press(.backspace) }
        f.type("alpha radio")
        f.press(.enter)
        #expect(
            f.controller.model.withLock { $0.alert?.code } == .alreadyInLibrary,
            "a name another station has is refused: \((try? f.library.store.stations().map(\.name)) ?? [])\n\(f.screen)")
        f.press(.enter)

        // Removing a second thing carries out the first; closing carries out the last.
        f.press(.up, .character("X"), .character("y"), .character("X"), .character("y"))
        #expect(try f.library.store.stations().map(\.name) == ["Beta FM"])
        await f.controller.finish()
        #expect(try f.library.store.stations().isEmpty)
    }

    /// A podcast removed from the screen takes its downloaded episodes with it.
    @Test func aRemovedPodcastTakesItsDownloadsWithIt() async throws {
        let f = try await Fixture()
        let audio = Data(repeating: 7, count: 50_000)
        let server = try TestHTTPServer { .file(audio, for: $0) }
        defer { server.stop() }
        let podcast = try f.library.store.addPodcast(
            feedURL: URL(string: "https://example.org/gone.xml")!,
            feed: PodcastFeed(title: "Gone Soon", episodes: [FeedEpisode(guid: "g", title: "Kept", enclosure: Enclosure(url: server.url("/k.mp3")))]),
            validators: .none)
        let episode = try #require(try f.library.store.episodes(podcastID: podcast.id).first)
        _ = await f.library.downloads.download([episode.id])
        let file = try #require(f.library.downloads.playableFile(episodeID: episode.id))
        f.controller.load()
        f.press(.tab, .character("X"))
        #expect(f.screen.contains("Remove “Gone Soon”"), "screen:\n\(f.screen)")
        f.press(.character("y"))
        await f.controller.finish()
        #expect(try f.library.store.podcasts().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    /// `R` on the Podcasts tab refreshes every feed: the rows stay while it loads, then show the
    /// new episodes; a feed that failed is an alert. `R` elsewhere fetches nothing; `?` lists it.
    @Test func capitalRRefreshesEveryPodcastFromThePodcastsTab() async throws {
        let body = Data(
            """
            <?xml version="1.0"?><rss version="2.0"><channel><title>Rivers</title>
            <item><guid>r1</guid><title>Source</title><enclosure url="https://cdn.example.org/r1.mp3"/></item>
            <item><guid>r2</guid><title>Delta</title><enclosure url="https://cdn.example.org/r2.mp3"/></item>
            </channel></rss>
            """.utf8)
        // The feeds are answered once the test has seen the refresh under way.
        let gate = Gate()
        let server = try TestHTTPServer { request in
            gate.wait()
            return request.path == "/rivers"
                ? .complete(contentType: "application/rss+xml", body: body) : .complete(status: 404, contentType: "text/plain", body: Data())
        }
        defer { server.stop() }
        let f = try await Fixture()
        _ = try f.library.store.addPodcast(feedURL: server.url("/rivers"), feed: PodcastFeed(title: "Rivers"), validators: .none)
        _ = try f.library.store.addPodcast(feedURL: server.url("/gone"), feed: PodcastFeed(title: "Lakes"), validators: .none)
        f.controller.load()
        f.press(.character("R"))
        #expect(f.controller.model.withLock { !$0.list.isLoading }, "R on the Stations tab refreshes nothing")
        f.press(.tab)
        #expect(f.screen.contains("0/0"))
        f.press(.character("R"))
        #expect(f.controller.model.withLock { $0.list.isLoading && $0.list.items.count == 2 })
        #expect(f.screen.contains("Loading"), "screen:\n\(f.screen)")
        f.press(.character("R"))
        gate.open()
        try await f.until("the refresh's alert") { f.controller.model.withLock { $0.alert != nil } }
        #expect(f.controller.model.withLock { $0.alert?.code } == .httpNotFound)
        #expect(f.controller.model.withLock { !$0.list.isLoading })
        // One batch, though R was pressed twice while it ran.
        #expect(server.requests.map(\.path).sorted() == ["/gone", "/rivers"])
        f.press(.enter)
        #expect(f.screen.contains("2/2"), "screen:\n\(f.screen)")
        f.press(.character("?"))
        #expect(f.screen.contains("R") && f.screen.contains("Refresh all podcasts"), "screen:\n\(f.screen)")
    }

    /// Enter plays, space pauses and resumes through the shared command mapping, Enter on another
    /// session replaces what plays without the player passing through idle, and leaving stops.
    @Test func sessionsPlayPauseAndReplaceEachOther() async throws {
        let f = try await Fixture()
        try f.addSession("Morning")
        try f.addSession("Evening")
        f.controller.load()
        f.press(.tab, .tab, .tab)
        let first = f.controller.model.withLock { $0.list.items.first?.title }
        f.press(.enter)
        try await f.until("the first session plays") { f.playerState.name == .playing }
        #expect(f.playerState.currentTrack?.title == "\(first ?? "") stage")
        #expect(f.screen.contains("\(first ?? "") stage"))
        f.press(.character(" "))
        try await f.until("paused") { f.playerState.name == .paused }
        f.press(.character(" "))
        try await f.until("playing again") { f.playerState.name == .playing }

        let before = f.states.names.withLock { $0.count }
        f.press(.escape, .down, .enter)
        let second = first == "Morning" ? "Evening" : "Morning"
        try await f.until("the second session plays") {
            f.playerState.name == .playing && f.playerState.currentTrack?.title == "\(second) stage"
        }
        let during = f.states.names.withLock { Array($0.dropFirst(before)) }
        #expect(during.contains(.fadingOut) && during.contains(.preparing), "\(during)")
        #expect(!during.contains(.idle) && !during.contains(.finished), "\(during)")

        f.press(.character("q"))
        #expect(f.controller.isQuitting)
        await f.controller.finish()
    }
}

/// Holds a test server's answers until the test opens it (or a deadline passes, so a broken test
/// fails instead of hanging).
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    func wait(deadline seconds: Double = 20) {
        condition.lock()
        defer { condition.unlock() }
        let until = Date(timeIntervalSinceNow: seconds)
        while !isOpen, condition.wait(until: until) {}
    }
}
