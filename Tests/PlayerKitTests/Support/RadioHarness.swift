import AudioEngine
import Foundation
import Logging
import PlayerCore
import PlayerKit
import Presentation
import Services
import Streaming
import TestProcesses
import Testing

/// One `TonearmPlayer` on a real-time null sink, its updates recorded, and its analytics, so a
/// radio test reads: play a URL, wait for a state, look at what was published.
///
/// Waiting is bounded by generous timeouts (a hang fails the test, it never blocks the suite);
/// nothing asserts wall-clock durations beyond those bounds.
final class RadioHarness: @unchecked Sendable {
    let composed: TonearmPlayer
    let analytics = ErrorAnalytics()
    var player: AudioPlayer { composed.player }

    private let lock = NSLock()
    private var log: [(update: PlayerUpdate, at: Double)] = []
    private let started = Date()
    /// What a live stream must hold before it sounds.
    let network: NetworkBuffering

    /// A reconnect policy short enough for tests that wait for it to give up.
    static func configuration(
        giveUpAfter: Double = ResilienceDefaults.reconnectGiveUpAfter, bufferingTimeout: Double = ResilienceDefaults.bufferingTimeout
    ) -> PlayerStateMachine.Configuration {
        PlayerStateMachine.Configuration(reconnectGiveUpAfter: giveUpAfter, bufferingTimeout: bufferingTimeout)
    }

    init(
        configuration: PlayerStateMachine.Configuration = RadioHarness.configuration(),
        network: NetworkBuffering = NetworkBuffering(),
        streaming: StreamingDecoderFactory.Options = .init(),
        metadata: MetadataService.Configuration = .init(),
        chapters: ChaptersService.Configuration? = nil,
        connectivity: ConnectivityMonitor? = nil,
        output: any AudioSink = NullSink(realtime: true),
        mode: RenderMode = .realtime,
        lookahead: Double? = nil,
        logger: Logger = .silent
    ) async throws {
        // Circuit breakers of this harness's own: the process's shared ones are keyed by host and
        // port, and a loopback port a server of another test failed on a moment ago may come
        // back for this test's server, whose requests would then be refused as circuitOpen.
        let breakers = HostCircuitBreakers()
        self.network = network
        var streaming = streaming
        if streaming.breakers === HostCircuitBreakers.shared { streaming.breakers = breakers }
        var artwork = ArtworkService.Configuration()
        artwork.allowPrivateAddresses = true
        artwork.cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-art-\(UUID().uuidString)")
        composed = TonearmPlayer(
            output: output,
            options: AudioPlayer.Options(configuration: configuration, mode: mode, lookahead: lookahead, network: network),
            services: TonearmPlayer.Services(
                network: NetworkClient(breakers: breakers), metadata: metadata, artwork: artwork, chapters: chapters, streaming: streaming, connectivity: connectivity, analytics: analytics,
                logger: logger),
            random: SeededRandom(seed: 4))
        try await composed.player.start()
        let updates = composed.player.updates
        // On the player's own thread, as a front end reads them: a busy pool delays nothing here.
        Task(executorPreference: composed.player.executor) { [weak self] in
            for await update in updates { self?.append(update) }
        }
    }

    /// The analytics events once the player has handed over every pending one: a state is
    /// published before its event is stored, so reading right after seeing `failed` could race.
    func recordedEvents() async throws -> [ErrorEvent] {
        await player.settleAnalytics()
        return try await analytics.events()
    }

    private var observer: (@Sendable (PlayerUpdate) -> Void)?

    private func append(_ update: PlayerUpdate) {
        let observer = lock.withLock {
            log.append((update, Date().timeIntervalSince(started)))
            return self.observer
        }
        observer?(update)
    }

    /// Hands every later update to `body` as well, in order, as a front end's observer sees them.
    func observe(_ body: @escaping @Sendable (PlayerUpdate) -> Void) {
        lock.withLock { observer = body }
    }

    /// Plays one live stream (or `kind`) at `url`.
    func play(_ url: URL, kind: Track.Kind = .liveStream, title: String = "Test Radio") async throws {
        try await player.play(PlayRequest(items: [QueueItem(track: Track(id: "radio", url: url, kind: kind, title: title))])!)
    }

    /// Plays `url` as a live stream and waits (generously: 30 s beyond the start buffer, which a
    /// live stream fills in real time) until it sounds.
    func playUntilPlaying(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await play(url)
        await waitFor("playing", timeout: 30 + network.startSeconds, sourceLocation: sourceLocation) { $0.name == .playing }
    }

    var updates: [PlayerUpdate] { lock.withLock { log.map(\.update) } }

    var states: [PlayerState] { updates.compactMap { if case .state(let s, _, _) = $0 { s } else { nil } } }

    /// State names with repeats folded.
    var names: [PlayerState.Name] {
        var out: [PlayerState.Name] = []
        for s in states where out.last != s.name { out.append(s.name) }
        return out
    }

    var metadata: [NowPlayingMetadata] {
        updates.compactMap { if case .notice(.metadata(let m), _) = $0 { m } else { nil } }
    }

    /// Seconds since the harness started at which the first state matching `predicate` was published.
    func firstTime(of predicate: (PlayerState) -> Bool) -> Double? {
        lock.withLock {
            log.first { if case .state(let s, _, _) = $0.update { predicate(s) } else { false } }?.at
        }
    }

    var elapsed: Double { Date().timeIntervalSince(started) }

    /// Waits until a published state satisfies `predicate` (looking at states published from now on
    /// when `fresh`), for at most `timeout` seconds. Returns the state, or records an issue and nil.
    @discardableResult
    func waitFor(
        _ what: String, timeout: Double, fresh: Bool = false, after mark: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ predicate: @escaping (PlayerState) -> Bool
    ) async -> PlayerState? {
        // `after`: only states published after `states.count` was `mark` (taken before an intent
        // whose states may arrive before this call).
        let skip = mark ?? (fresh ? states.count : 0)
        var match: PlayerState?
        _ = await waitUntil(what, timeout: timeout, sourceLocation: sourceLocation) {
            match = self.states.dropFirst(skip).first(where: predicate)
            return match != nil
        }
        return match
    }

    /// Waits until `condition` holds, polling, for at most `timeout` seconds. Returns false and
    /// records an issue naming `what` and the states seen when it never does.
    func waitUntil(
        _ what: String, timeout: Double, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async -> Bool
    ) async -> Bool {
        if await eventually(timeout: timeout, condition) { return true }
        Issue.record("timed out after \(timeout) s waiting for \(what); states: \(names.map(\.rawValue)); last: \(String(describing: states.last)); positions published: \(updates.filter { if case .position = $0 { true } else { false } }.count)", sourceLocation: sourceLocation)
        return false
    }

    func shutdown() async {
        await composed.shutdown()
    }
}

/// Checks that an error has the expected code and is explained in both languages (Russian in Cyrillic).
func expectExplained(_ error: PlaybackError, _ code: PlaybackError.Code, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(error.code == code, sourceLocation: sourceLocation)
    let english = error.text(in: .english)
    let russian = error.text(in: .russian)
    #expect(!english.message.isEmpty && !russian.message.isEmpty, sourceLocation: sourceLocation)
    #expect(english.message != russian.message, sourceLocation: sourceLocation)
    #expect(russian.message.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }, sourceLocation: sourceLocation)
}

/// The machine's reconnecting states, in order (one per attempt or countdown change).
extension PlayerState {
    var reconnectAttempt: Int? {
        if case .reconnecting(_, let attempt, _, _, _) = self { attempt } else { nil }
    }

    var failure: (error: PlaybackError, recoverable: Bool)? {
        if case .failed(let error, let recoverable, _) = self { (error, recoverable) } else { nil }
    }
}
