import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit
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

        init() async throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-controller-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            library = try await LibraryContext.open(directory: directory.appendingPathComponent("data"), logger: Logger(label: "test"))
            let states = self.states
            controller = LibraryController(
                library: library, output: .null, language: .english, bindings: .standard, logger: Logger(label: "test"),
                observer: { update in
                    if case .state(let state, _, _) = update { states.names.withLock { $0.append(state.name) } }
                })
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
        f.press(.tab, .tab)
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

    /// Enter plays, space pauses and resumes through the shared command mapping, Enter on another
    /// session replaces what plays without the player passing through idle, and leaving stops.
    @Test func sessionsPlayPauseAndReplaceEachOther() async throws {
        let f = try await Fixture()
        try f.addSession("Morning")
        try f.addSession("Evening")
        f.controller.load()
        f.press(.tab, .tab)
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
