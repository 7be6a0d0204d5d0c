import Foundation
import PlayerCore

/// The player: drives the pure `PlayerStateMachine` and performs its effects on the render thread,
/// the decks' loaders and the retry timer. Every state change is published on `updates`.
///
/// The actor holds no playback logic of its own: it turns intents and engine facts into machine
/// events (stamped with the injected clock) and the machine's effects into commands.
public actor AudioPlayer {
    /// How the player runs.
    public struct Options: Sendable {
        public var configuration: PlayerStateMachine.Configuration
        public var mode: RenderMode
        /// Seconds each deck decodes ahead. Render mode decodes further so decoding runs on one core
        /// while mixing and writing run on the other.
        public var lookahead: Double

        public init(configuration: PlayerStateMachine.Configuration = .init(), mode: RenderMode = .realtime, lookahead: Double? = nil) {
            var configuration = configuration
            if mode == .asFastAsPossible {
                // Load the next item as soon as the current one plays: rendering decodes it meanwhile.
                configuration.preloadLead = 1e9
            }
            self.configuration = configuration
            self.mode = mode
            self.lookahead = lookahead ?? (mode == .realtime ? 2 : 60)
        }
    }

    public nonisolated let updates: AsyncStream<PlayerUpdate>
    private let continuation: AsyncStream<PlayerUpdate>.Continuation
    private let reportContinuation: AsyncStream<(EngineReport, UInt64)>.Continuation
    private var machine: PlayerStateMachine
    private let engine: RenderEngine
    private let decoders: any DecoderFactory
    private let clock: PlayerClock
    private let options: Options
    private var retryTask: Task<Void, Never>?
    private var audioTime: Double = 0
    private var lastPublished: PlayerState?
    private var running = false

    /// Seconds of audio a real-time deck holds before it is reported loaded.
    static let initialFillFrames = 12_000

    public init<C: Clock>(
        output: any AudioSink,
        options: Options = Options(),
        decoders: any DecoderFactory = FileDecoderFactory(),
        clock: C = ContinuousClock(),
        random: SeededRandom = .systemSeeded()
    ) where C.Duration == Duration {
        // A sink that does not pace itself (a file) is rendered: in real-time mode nothing would
        // keep the render thread from outrunning the machine's decisions.
        let options = output.isRealtime || options.mode == .asFastAsPossible
            ? options : Options(configuration: options.configuration, mode: .asFastAsPossible, lookahead: nil)
        (updates, continuation) = AsyncStream.makeStream(of: PlayerUpdate.self, bufferingPolicy: .unbounded)
        machine = PlayerStateMachine(configuration: options.configuration, random: random)
        self.decoders = decoders
        self.clock = PlayerClock(clock)
        self.options = options
        let (reports, reportContinuation) = AsyncStream.makeStream(of: (EngineReport, UInt64).self, bufferingPolicy: .unbounded)
        self.reportContinuation = reportContinuation
        engine = RenderEngine(sink: output, mode: options.mode) { report, sequence in
            reportContinuation.yield((report, sequence))
        }
        Task { [weak self] in
            for await (report, sequence) in reports {
                await self?.handle(report, sequence: sequence)
            }
        }
    }

    /// The current state.
    public var state: PlayerState { machine.state }

    /// Opens the output and starts rendering. No sound server -> `audioOutputUnavailable`.
    public func start() throws(PlaybackError) {
        guard !running else { return }
        try engine.sink.open()
        engine.start()
        running = true
        publishState(force: true)
    }

    /// Sends a user intent (play, pause, resume, stop, skip, seek, retry, reset, retryNow,
    /// cancelRetry). A disallowed intent throws `invalidTransition` and changes nothing.
    public func send(_ intent: PlayerEvent) throws(PlaybackError) {
        guard intent.action != nil else {
            throw PlaybackError(.invalidTransition, rejectedState: machine.state.name, underlying: "not a user intent")
        }
        let effects = try machine.handle(intent)
        perform(effects)
        publishState()
    }

    public func play(_ request: PlayRequest) throws(PlaybackError) { try send(.play(request)) }
    public func pause() throws(PlaybackError) { try send(.pause) }
    public func resume() throws(PlaybackError) { try send(.resume) }
    public func stop() throws(PlaybackError) { try send(.stop) }
    public func skip() throws(PlaybackError) { try send(.skip) }
    public func seek(to seconds: Double) throws(PlaybackError) { try send(.seek(to: seconds)) }
    public func retry() throws(PlaybackError) { try send(.retry) }

    /// Waits until the output has played what was written, stops rendering, closes the output and
    /// ends `updates`.
    public func shutdown() {
        retryTask?.cancel()
        engine.shutdown()
        if running { try? engine.sink.drain() }
        engine.sink.close()
        running = false
        reportContinuation.finish()
        continuation.finish()
    }

    // MARK: Engine reports

    private func handle(_ report: EngineReport, sequence: UInt64) {
        audioTime = report.audioTime
        let now = PlayerTime(seconds: clock.now())
        var event: PlayerEvent?
        switch report.fact {
        case .loaded(let id, let duration): event = .loaded(id, duration: duration)
        case .loadFailed(let id, let error): event = .loadFailed(id, error, at: now)
        case .position(let node, let position, let duration):
            event = .positionChanged(node, position: position)
            continuation.yield(.position(seconds: position, duration: duration ?? machine.currentDuration, audioTime: audioTime))
        case .underrun(let node): event = .underrun(node)
        case .refilled(let node): event = .refilled(node)
        case .crossfadeStarted: event = .crossfadeStarted
        case .crossfadeProgress(let p, let from, let to):
            event = .crossfadeProgress(p, fromPosition: from, toPosition: to)
            continuation.yield(.position(seconds: from, duration: machine.currentDuration, audioTime: audioTime))
        case .crossfadeCompleted: event = .crossfadeCompleted
        case .fadeOutCompleted: event = .fadeOutCompleted
        case .trackEnded(let node): event = .trackEnded(node, at: now)
        case .deckFailed(let node, let error): event = .errorOccurred(node, error, at: now)
        case .outputLost: event = .outputLost(at: now)
        case .outputRestored: event = .outputRestored
        case .routeChanged(let change):
            continuation.yield(.notice(.routeChanged(change), audioTime: audioTime))
            if machine.state.allows(.pause) { event = .pause }
        }
        if let event { apply(event) }
        engine.acknowledge(sequence)
    }

    private func apply(_ event: PlayerEvent) {
        do throws(PlaybackError) {
            let effects = try machine.handle(event)
            perform(effects)
        } catch {
            // The machine refused an internal change: a bug, reported rather than hidden.
            continuation.yield(.notice(.nonFatal(error), audioTime: audioTime))
        }
        publishState()
    }

    private func publishState(force: Bool = false) {
        let state = machine.state
        if force || lastPublished != state || lastPublished?.name != state.name {
            lastPublished = state
            continuation.yield(.state(state, audioTime: audioTime, now: PlayerTime(seconds: clock.now())))
        }
    }

    // MARK: Effects

    private func perform(_ effects: [PlayerEffect]) {
        for effect in effects {
            switch effect {
            case .load(let id, let deck, let track, let from): load(id, deck: deck, track: track, from: from)
            case .start(let deck): engine.enqueue(.start(deck))
            case .unload(let deck): engine.enqueue(.unload(deck))
            case .pauseOutput: engine.enqueue(.pauseOutput)
            case .resumeOutput: engine.enqueue(.resumeOutput)
            case .seek(let deck, let to): engine.enqueue(.seek(deck, to))
            case .scheduleCrossfade(let from, let to, let duration, let curve, let at):
                engine.enqueue(.scheduleCrossfade(from: from, to: to, duration: duration, curve: curve, atPosition: at))
            case .continueCrossfade(let progress, _, _): engine.enqueue(.continueCrossfade(fromProgress: progress))
            case .quickFinishCrossfade(let duration): engine.enqueue(.quickFinishCrossfade(duration: duration))
            case .abortCrossfade(let keep): engine.enqueue(.abortCrossfade(keep: keep))
            case .fadeOut(let duration): engine.enqueue(.fadeOut(duration: duration))
            case .reopenOutput: engine.enqueue(.reopenOutput)
            case .scheduleRetry(let attempt, let at): scheduleRetry(attempt: attempt, at: at)
            case .cancelRetry:
                retryTask?.cancel()
                retryTask = nil
            case .persistPosition(let point): continuation.yield(.notice(.savePosition(point), audioTime: audioTime))
            case .reportNonFatal(let error): continuation.yield(.notice(.nonFatal(error), audioTime: audioTime))
            case .recovered(let error, let how): continuation.yield(.notice(.recovered(error, by: how), audioTime: audioTime))
            case .trackFinished(let track): continuation.yield(.notice(.trackFinished(track), audioTime: audioTime))
            }
        }
    }

    private func scheduleRetry(attempt: Int, at: PlayerTime) {
        retryTask?.cancel()
        let clock = self.clock
        retryTask = Task { [weak self] in
            do {
                try await clock.sleep(at.seconds - clock.now())
            } catch {
                return
            }
            await self?.apply(.retryDue(attempt: attempt, at: PlayerTime(seconds: clock.now())))
        }
    }

    /// Opens the source on a loader thread (opening may block on disk or network), decodes a
    /// little ahead in real time, then hands the deck to the render thread.
    private func load(_ id: LoadID, deck node: PlayerNode, track: Track, from: Double) {
        engine.enqueue(.expectLoad(node, id))
        let engine = self.engine
        let decoders = self.decoders
        let lookahead = Int(options.lookahead * Double(AudioFormat.sampleRate))
        let initialFill = options.mode == .realtime ? Self.initialFillFrames : 0
        Thread.detachNewThread {
            do throws(PlaybackError) {
                let decoder = try decoders.makeDecoder(for: track)
                let deck = Deck(node: node, loadID: id, track: track, decoder: decoder, startAt: from, lookaheadFrames: lookahead)
                deck.start(initialSeek: from > 0 ? from : nil)
                let deadline = Date().addingTimeInterval(5)
                while deck.bufferedFrames < initialFill && !deck.sourceEnded && Date() < deadline {
                    Thread.sleep(forTimeInterval: 0.002)
                }
                engine.enqueue(.install(deck))
            } catch {
                engine.enqueue(.loadFailed(id, error))
            }
        }
    }
}
