import AudioEngine
import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Synchronization
import TestProcesses
import Testing

/// The listener's queue played end to end: one request in queue order, each episode from its
/// saved place, an episode that ends marked played and out of the queue, an entry skipped past out
/// of it too, and what cannot play told and kept.
@Suite("Queue playback", .serialized, .blocking)
struct QueuePlaybackTests {
    /// A library subscribed to three episodes of `seconds` that `server` serves (counting WAVs), and one without audio.
    struct Setup {
        let server: TestHTTPServer
        let library: LibraryContext
        let episodes: [EpisodeRecord]

        init(seconds: Int = 2) async throws {
            let wav = EpisodeResumeTests.countingWAV(seconds: seconds)
            let base = Mutex("")
            let server = try TestHTTPServer { request in
                if request.path == "/feed.xml" {
                    let root = base.withLock { $0 }
                    let items = (1...3).map { n in ("g\(n)", "Episode \(n)", Optional("\(root)/e\(n).wav")) }
                        + [("g4", "Silent", nil)]
                    return .complete(contentType: "application/rss+xml", body: PodcastLibraryTests.feed(title: "Queue Show", items: items))
                }
                return .file(wav, for: request, contentType: "audio/wav")
            }
            base.withLock { $0 = server.baseURL }
            self.server = server
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-queue-\(UUID().uuidString)")
            library = try await LibraryContext.open(directory: directory, logger: .silent)
            let podcast = try await library.podcasts.add(feedURL: server.url("/feed.xml"))
            episodes = try library.store.episodes(podcastID: podcast.id)
        }

        func episode(_ title: String) -> EpisodeRecord { episodes.first { $0.title == title }! }
    }

    static func play(_ plan: QueuePlan, until: @escaping (PlayerState) -> Bool) async throws -> (RadioHarness, CapturingSink) {
        let sink = CapturingSink()
        let radio = try await RadioHarness(
            configuration: PlayerStateMachine.Configuration(fadeOutAtEnd: false), output: sink, mode: .asFastAsPossible)
        try await radio.player.play(try #require(plan.request))
        await radio.waitFor("the queue's end", timeout: 60, until)
        return (radio, sink)
    }

    @Test func theQueuePlaysInOrderFromEachPlaceAndEmptiesAsEpisodesEnd() async throws {
        let s = try await Setup()
        defer { s.server.stop() }
        let (first, second) = (s.episode("Episode 2"), s.episode("Episode 1"))
        try s.library.store.enqueue(.episode(first.id))
        try s.library.store.enqueue(.episode(second.id))
        try s.library.store.enqueue(.episode(s.episode("Silent").id))
        // The second in the queue was left half way: it goes on from there when reached.
        try s.library.store.savePosition(episodeID: second.id, position: 1, duration: 2)

        let plan = try s.library.queueToPlay()
        #expect(plan.skipped.map(\.entry.title) == ["Silent"])
        #expect(plan.skipped.first?.error.code == .missingAudioURL)
        let request = try #require(plan.request)
        #expect(request.items.map(\.track.id) == ["episode:\(first.id)", "episode:\(second.id)"])
        #expect(request.items.map(\.startPosition) == [0, 1])

        // The episodes' places are kept by the player's places, which the queue names them to.
        let places = EpisodePlaces(store: s.library.store)
        let recorder = QueueRecorder(store: s.library.store, plan: plan, places: places)
        let (radio, sink) = try await Self.play(plan) { $0.name == .finished }
        await radio.shutdown()
        for update in radio.updates {
            places.observe(update)
            recorder.observe(update)
        }
        #expect(recorder.firstError == nil && places.firstError == nil)

        // 2 s of the first, then the last 1 s of the second, in order, nothing repeated.
        let numbers = EpisodeResumeTests.frameNumbers(sink.samples)
        #expect(numbers.count == 3 * EpisodeResumeTests.sampleRate, "rendered \(numbers.count) frames")
        let secondStart = 2 * EpisodeResumeTests.sampleRate
        #expect(abs(numbers[secondStart + 10] - (EpisodeResumeTests.sampleRate + 10)) <= 1, "the second began at \(numbers[secondStart])")
        #expect(try s.library.store.episode(id: first.id).played && s.library.store.episode(id: second.id).played)
        #expect(try s.library.store.queue().map(\.title) == ["Silent"], "what ended left; what could not play stays")
    }

    /// A session with bells between two episodes: a part of its own, so its bells ring at its
    /// start and end and never under an episode; each part starts once the one before has played
    /// to its end, on the same player, and everything that ended leaves the queue.
    @Test func aSessionWithLayersIsAPartOfItsOwnAndTheQueueGoesOnAfterIt() async throws {
        let s = try await Setup()
        defer { s.server.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-queue-sit-\(UUID().uuidString).json")
        let json = #"{"name": "Sit", "stages": [{"title": "Sit", "source": "tonearm:silence", "duration": 1}], "bells": {"sound": "bowl"}}"#
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let session = try s.library.store.addSession(name: "Sit", path: file.path, json: json)
        let (one, two) = (s.episode("Episode 1"), s.episode("Episode 2"))
        try s.library.store.enqueue(.episode(one.id))
        try s.library.store.enqueue(.session(session.id))
        try s.library.store.enqueue(.episode(two.id))

        let plan = try s.library.queueToPlay()
        let first = try #require(plan.request)
        #expect(first.items.map(\.track.id) == ["episode:\(one.id)"])
        #expect(first.layers == nil)
        #expect(plan.continuesFrom == (try s.library.store.queue())[1].id)
        let alone = try #require(try s.library.queueToPlay(from: plan.continuesFrom).request)
        #expect(alone.layers?.bells != nil && alone.items.count == 1, "the session alone, with its bells")

        let radio = try await RadioHarness(
            configuration: PlayerStateMachine.Configuration(fadeOutAtEnd: false), output: CapturingSink(), mode: .asFastAsPossible)
        let places = EpisodePlaces(store: s.library.store)
        let parts = QueuePlayback(
            library: s.library, plan: plan, places: places, logger: .silent,
            start: { request in try? await radio.player.send(.replace(.play(request))) })
        radio.observe { update in
            places.observe(update)
            parts.observe(update)
        }
        try await radio.player.play(first)
        await radio.waitFor("the last episode playing", timeout: 60) { $0.currentTrack?.id == "episode:\(two.id)" }
        let lastPart = try #require(radio.states.firstIndex { $0.currentTrack?.id == "episode:\(two.id)" })
        await radio.waitFor("the queue's end", timeout: 60, after: lastPart) { $0.name == .finished }
        #expect(await radio.waitUntil("the queue emptied", timeout: 30) { (try? s.library.store.queue().isEmpty) ?? false })
        await radio.shutdown()

        // In order: the first episode, the session's two bells, the last episode.
        let order: [String] = radio.updates.compactMap { update in
            switch update {
            case .notice(.trackFinished(let track), _): track.id
            case .notice(.bell(let strike), _): "bell \(strike.cue.kind.rawValue)"
            default: nil
            }
        }
        #expect(order.first == "episode:\(one.id)" && order.last == "episode:\(two.id)", "\(order)")
        #expect(order.filter { $0.hasPrefix("bell") } == ["bell start", "bell end"], "\(order)")
        let layered = radio.updates.compactMap { if case .layers(let status, _) = $0 { status } else { nil } }
        #expect(!layered.isEmpty)
        #expect(try s.library.store.episode(id: one.id).played && s.library.store.episode(id: two.id).played)
    }

    @Test func anEntrySkippedPastLeavesTheQueueUnplayedAndStoppingKeepsTheRest() async throws {
        // Long enough that the skip's short crossfade ends well before the first episode would.
        let s = try await Setup(seconds: 8)
        defer { s.server.stop() }
        let ids = ["Episode 1", "Episode 2", "Episode 3"].map { s.episode($0).id }
        for id in ids { try s.library.store.enqueue(.episode(id)) }
        let plan = try s.library.queueToPlay()
        let places = EpisodePlaces(store: s.library.store)
        let recorder = QueueRecorder(store: s.library.store, plan: plan, places: places)
        // Real time, so the skip lands while the first plays.
        let sink = CapturingSink(pacedBy: NullSink(realtime: true))
        let radio = try await RadioHarness(configuration: PlayerStateMachine.Configuration(fadeOutAtEnd: false), output: sink)
        try await radio.player.play(try #require(plan.request))
        await radio.waitFor("the first playing", timeout: 30) { $0.name == .playing }
        try await radio.player.skip()
        await radio.waitFor("the second playing", timeout: 30) { $0.currentTrack?.id == "episode:\(ids[1])" && $0.name == .playing }
        try await radio.player.stop()
        await radio.waitFor("stopped", timeout: 30) { $0.name == .idle }
        await radio.shutdown()
        for update in radio.updates {
            places.observe(update)
            recorder.observe(update)
        }
        #expect(try s.library.store.queue().map(\.itemID) == [ids[1], ids[2]])
        #expect(try !s.library.store.episode(id: ids[0]).played, "skipped, not played")
    }
}
