import Foundation
import Logging
import Media
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
        /// Seconds each deck decodes ahead. Render mode decodes a little further so decoding runs
        /// on one core while mixing and writing run on the other; a few seconds keep both busy,
        /// and every second more is 384 KB of decoded audio held per deck.
        public var lookahead: Double
        /// Start and refill thresholds of network tracks.
        public var network: NetworkBuffering
        /// Where measured loudness is kept between runs; nil measures again every run.
        public var loudnessStore: (any LoudnessStore)?

        public init(
            configuration: PlayerStateMachine.Configuration = .init(), mode: RenderMode = .realtime, lookahead: Double? = nil,
            network: NetworkBuffering = NetworkBuffering(), loudnessStore: (any LoudnessStore)? = nil
        ) {
            var configuration = configuration
            if mode == .asFastAsPossible {
                // Load the next item as soon as the current one plays: rendering decodes it meanwhile.
                configuration.preloadLead = 1e9
                // A render waits for the decoder all the time; only a longer wait, the network's,
                // is shown as buffering.
                configuration.underrunGrace = max(configuration.underrunGrace, ResilienceDefaults.renderWaitShownAfter)
            }
            self.configuration = configuration
            self.mode = mode
            self.lookahead = lookahead ?? (mode == .realtime ? 2 : 5)
            self.network = network
            self.loudnessStore = loudnessStore
        }
    }

    /// The player's own thread: the actor runs there, never on the shared concurrency pool, so
    /// nothing else the process does can hold back its decisions. Tasks that talk to the player
    /// (a key's command, a loop over `updates`) can run there too:
    /// `Task(executorPreference: player.executor) { ... }`.
    public nonisolated let executor: ThreadExecutor

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    public nonisolated let updates: AsyncStream<PlayerUpdate>
    let continuation: AsyncStream<PlayerUpdate>.Continuation
    let reportContinuation: AsyncStream<(EngineReport, UInt64)>.Continuation
    /// Network sources' connection facts, folded per deck (see `ConnectionMailbox`).
    let connections = ConnectionMailbox()
    /// Wakes the actor when a deck's mailbox has news; at most one wake-up per deck is queued.
    let connectionWakeUps: AsyncStream<DeckID>.Continuation
    var machine: PlayerStateMachine
    let engine: RenderEngine
    let decoders: any DecoderFactory
    let clock: PlayerClock
    let options: Options
    let analytics: PlayerAnalytics?
    let log: PlayerLog
    /// The machine's timers, one per slot.
    var timers = TimerSlots<PlayerTimer.Slot>()
    /// The load in flight on each deck, so it can be abandoned (a stop, a skip, a new attempt), and
    /// its id, so a fact from an abandoned load's connection is dropped.
    var loads: [DeckID: (id: LoadID, load: LoadCancellation)] = [:]
    /// The opening of a session's bed and bell sound, while it runs.
    var layerLoad: LoadCancellation?
    /// A stage's `loaded`, waiting until the session's layers are open.
    var heldLoad: PlayerEvent?
    var audioTime: Double = 0
    var lastPublished: PlayerState?
    /// The current item's index last told (`PlayerNotice.currentItem`); nil once nothing is current.
    var lastToldItemIndex: Int?
    var running = false
    /// Loudness learned for tracks after they were queued (kept, tagged or measured), by track id.
    var knownLoudness: [String: Loudness] = [:]
    /// An album's loudness found in a track's tags by its loader, by track id.
    var knownAlbumLoudness: [String: Loudness] = [:]
    /// Files being measured in the background, by track id.
    var measuring: Set<String> = []
    /// The levelling figures last published, so an unchanged one is not sent again.
    var publishedLoudness: (LoudnessLevelling, Double?)?
    /// Seconds of decoded audio queued on the active deck, as its last position report said.
    var decodedAhead: Double?
    /// The audio time of the last connection update.
    var connectionPublishedAt: Double?
    /// Where feed chapters come from; nil: only a file's own.
    let chapterSource: (any ChapterSource)?
    var chapters = KnownChapters()
    /// Where transcripts come from; nil: none are looked for.
    let transcriptSource: (any TranscriptSource)?
    var transcripts = KnownTranscripts()
    /// The track on each deck, so chapters of items no longer on one are forgotten.
    var deckTracks: [DeckID: String] = [:]

    package init(
        output: any AudioSink,
        options: Options = Options(),
        decoders: any DecoderFactory = FileDecoderFactory(),
        clock: any Clock<Duration> = SystemClock(),
        random: SeededRandom = .systemSeeded(),
        analytics: ErrorAnalytics? = nil,
        logger: Logger = Logger(label: "tonearm.player", factory: { _ in SwiftLogNoOpLogHandler() }),
        chapterSource: (any ChapterSource)? = nil,
        transcriptSource: (any TranscriptSource)? = nil,
        executor: ThreadExecutor = ThreadExecutor(name: "tonearm.player")
    ) {
        self.executor = executor
        self.chapterSource = chapterSource
        self.transcriptSource = transcriptSource
        self.analytics = analytics.map(PlayerAnalytics.init)
        self.log = PlayerLog(logger: logger)
        // A sink that does not pace itself (a file) is rendered: in real-time mode nothing would
        // keep the render thread from outrunning the machine's decisions.
        let options = output.isRealtime || options.mode == .asFastAsPossible
            ? options
            : Options(
                configuration: options.configuration, mode: .asFastAsPossible, lookahead: nil, network: options.network,
                loudnessStore: options.loudnessStore)
        (updates, continuation) = AsyncStream.makeStream(of: PlayerUpdate.self, bufferingPolicy: .unbounded)
        machine = PlayerStateMachine(configuration: options.configuration, random: random)
        self.decoders = decoders
        self.clock = PlayerClock(clock)
        self.options = options
        let (wakeUps, wakeUpContinuation) = AsyncStream.makeStream(of: DeckID.self, bufferingPolicy: .unbounded)
        connectionWakeUps = wakeUpContinuation
        let (reports, reportContinuation) = AsyncStream.makeStream(of: (EngineReport, UInt64).self, bufferingPolicy: .unbounded)
        self.reportContinuation = reportContinuation
        engine = RenderEngine(
            sink: output, mode: options.mode, network: options.network, volume: options.configuration.volume.level,
            speed: options.configuration.speed.rate, trimsSilence: options.configuration.trimsSilence,
            loudness: options.configuration.loudness
        ) {
            report, sequence in
            reportContinuation.yield((report, sequence))
        }
        Task(executorPreference: executor) { [weak self] in
            for await (report, sequence) in reports {
                await self?.handle(report, sequence: sequence)
            }
        }
        Task(executorPreference: executor) { [weak self] in
            for await deck in wakeUps {
                await self?.deliverConnectionNews(deck)
            }
        }
    }

    /// Hands `updates` to `body` on a thread of its own, so a front end sees every update on time
    /// however busy the shared pool is, and one that is slow (a pipe nobody reads) holds back
    /// only itself, never the player. `updates` has one consumer: call this once.
    public nonisolated func consumeUpdates<T, Failure: Error>(
        _ body: (AsyncStream<PlayerUpdate>) async throws(Failure) -> T
    ) async throws(Failure) -> T {
        let updates = self.updates
        return try await withTaskExecutorPreference(ThreadExecutor(name: "tonearm.updates")) { () async throws(Failure) -> T in
            try await body(updates)
        }
    }

    /// The current state.
    public var state: PlayerState { machine.state }

    /// The samples last sent to the output, for a level meter.
    package nonisolated var outputTap: OutputTap { engine.tap }

    /// The listener's volume.
    public var volume: Volume { machine.volume }

    /// The sleep timer, if one is set.
    public var sleepTimer: SleepTimer? { machine.sleepTimer }

    /// The speed of files and episodes.
    public var speed: PlaybackSpeed { machine.speed }

    /// How loudness is levelled.
    public var loudness: LoudnessLevelling { machine.loudness }

    /// The current item's chapters, as last published (nil: none known).
    public var currentChapters: ChapterList? { chapters.publishedList }
    /// The transcript of the item playing, as last told (`PlayerNotice.transcript`).
    public var currentTranscript: Transcript? { transcripts.published }

    /// The current item's position as last reported, with the item's id.
    var lastPosition: (trackID: String?, seconds: Double)?

    /// The current item's position as last reported (nil before its first report), for commands
    /// relative to it that come without a screen's model (stdin's `chapter next`).
    public var currentPosition: Double? {
        guard let lastPosition, lastPosition.trackID == machine.state.currentTrack?.id else { return nil }
        return lastPosition.seconds
    }

    /// Opens the output and starts rendering. No sound server -> `audioOutputUnavailable`.
    public func start() throws(PlaybackError) {
        guard !running else { return }
        try engine.sink.open()
        engine.start()
        running = true
        publishState(force: true)
        continuation.yield(.volume(machine.volume, audioTime: audioTime))
        continuation.yield(.speed(machine.speed, audioTime: audioTime))
        if let timer = machine.sleepTimer {
            continuation.yield(.sleepTimer(timer, audioTime: audioTime, now: PlayerTime(seconds: clock.now())))
        }
    }

    /// Sends a user intent (play, pause, resume, stop, skip, seek, retry, reset, retryNow,
    /// cancelRetry, replace). A disallowed intent throws `invalidTransition` and changes nothing.
    public func send(_ intent: PlayerEvent) throws(PlaybackError) {
        guard intent.isIntent else {
            throw PlaybackError(.invalidTransition, rejectedState: machine.state.name, underlying: "not a user intent")
        }
        let effects = try machine.handle(intent, at: PlayerTime(seconds: clock.now()))
        log.handled(intent, effects: effects, state: machine.state, now: clock.now())
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

    /// Changes what plays after the current item without interrupting it (an edited queue):
    /// `items` follow the current one in order, and `crossfadeFromCurrent` (nil: the default)
    /// leads into the first. Does nothing when nothing is current (`idle`, `finished`, `failed`).
    public func setUpcoming(_ items: [QueueItem], crossfadeFromCurrent: CrossfadeSpec? = nil) throws(PlaybackError) {
        try send(.setUpcoming(UpcomingChange(items: items, crossfadeFromCurrent: crossfadeFromCurrent)))
    }

    /// Which item of the request is current (see `PlayerStateMachine.currentItemIndex`).
    public var currentItemIndex: Int? { machine.currentItemIndex }

    /// What a live stream says is playing (from the metadata and artwork services), published in
    /// order with everything else as `.notice(.metadata)`.
    package func publish(_ metadata: NowPlayingMetadata) {
        continuation.yield(.notice(.metadata(metadata), audioTime: audioTime))
    }

    /// A service beside playback failed (artwork, a status API), published in order as
    /// `.notice(.serviceProblem)`; playback goes on.
    package func publishProblem(_ error: PlaybackError) {
        log.serviceProblem(error)
        continuation.yield(.notice(.serviceProblem(error), audioTime: audioTime))
    }

    /// The connectivity monitor's verdict: offline pauses reconnect attempts (none are spent), and
    /// the network coming back reconnects at once.
    package func connectivityChanged(online: Bool) {
        apply(.connectivityChanged(online: online, at: PlayerTime(seconds: clock.now())))
    }

    /// Waits until the output has played what was written, stops rendering, closes the output and
    /// ends `updates`.
    public func shutdown() {
        timers.cancelAll()
        loads.values.forEach { $0.load.cancel() }
        loads.removeAll()
        engine.shutdown()
        if running { try? engine.sink.drain() }
        engine.sink.close()
        running = false
        reportContinuation.finish()
        connectionWakeUps.finish()
        continuation.finish()
        analytics?.finish()
    }

    /// Waits until every error reported so far is in the analytics store, and goes on recording:
    /// a state is published before its error is stored, so a reader right after `failed` waits here.
    public func settleAnalytics() async {
        await analytics?.settled()
    }

    /// Waits until every error of this playback is in the analytics store. Call it after
    /// `shutdown()` and before the process exits.
    public func flushAnalytics() async {
        await analytics?.drained()
    }

    // MARK: Engine reports

    func handle(_ report: EngineReport, sequence: UInt64) {
        audioTime = report.audioTime
        let now = PlayerTime(seconds: clock.now())
        var event: PlayerEvent?
        switch report.fact {
        case .loaded(let id, let duration): event = .loaded(id, duration: duration)
        case .loadIsRecording(let id): event = .loadIsRecording(id)
        case .loadFailed(let id, let error): event = .loadFailed(id, error, at: now)
        case .position(let node, let position, let duration, let buffered):
            event = .positionChanged(node, position: position)
            if node == machine.activeDeck {
                lastPosition = (machine.state.currentTrack?.id, position)
                if let change = chapters.positionChange(at: position) { continuation.yield(.notice(.chapter(change), audioTime: audioTime)) }
                if let change = transcripts.cueChange(at: position) { continuation.yield(.notice(.cue(change), audioTime: audioTime)) }
            }
            continuation.yield(.position(seconds: position, duration: duration ?? machine.currentDuration, audioTime: audioTime))
            if node == machine.activeDeck {
                decodedAhead = buffered
                publishConnection()
            }
        case .underrun(let node):
            event = .underrun(node)
            loads[node]?.load.connection.underrun()
        case .bufferProgress(let node, let fill): event = .bufferProgress(node, fill: fill)
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
        case .silenceTrimmed(_, let seconds):
            // A count for the listener's statistics, not a decision: told, not given to the machine.
            if let track = machine.state.currentTrack {
                continuation.yield(.notice(.silenceTrimmed(track, seconds: seconds), audioTime: audioTime))
            }
        case .loudnessHeard(let track, let loudness):
            log.loudness(loudness, of: track)
            options.loudnessStore?.keep(loudness, of: track)
        case .layersProgress, .bellStruck, .sessionClockJumped, .layersFinished:
            event = layerEvent(report.fact)
        }
        if let event, !holdsForLayers(event) { apply(event, at: now) }
        engine.acknowledge(sequence)
    }

    func apply(_ event: PlayerEvent, at now: PlayerTime? = nil) {
        do throws(PlaybackError) {
            let effects = try machine.handle(event, at: now ?? PlayerTime(seconds: clock.now()))
            log.handled(event, effects: effects, state: machine.state, now: clock.now())
            perform(effects)
        } catch {
            log.refused(event, error: error)
            // The machine refused an internal change: a bug, reported rather than hidden.
            continuation.yield(.notice(.nonFatal(error), audioTime: audioTime))
        }
        publishState()
    }

    func publishState(force: Bool = false) {
        let itemIndex = machine.currentItemIndex
        if itemIndex != lastToldItemIndex {
            lastToldItemIndex = itemIndex
            if let itemIndex { continuation.yield(.notice(.currentItem(index: itemIndex), audioTime: audioTime)) }
        }
        let state = machine.state
        if force || lastPublished != state || lastPublished?.name != state.name {
            if lastPublished?.name != state.name || state.name == .reconnecting { analytics?.observe(state) }
            log.stateChanged(from: lastPublished, to: state)
            lastPublished = state
            continuation.yield(.state(state, audioTime: audioTime, now: PlayerTime(seconds: clock.now())))
            publishLoudness()
            publishChapters()
            publishTranscript()
        }
    }

    // MARK: Effects

    func perform(_ effects: [PlayerEffect]) {
        for effect in effects {
            switch effect {
            case .load(let id, let deck, let track, let from): load(id, deck: deck, track: track, from: from)
            case .start(let deck): engine.enqueue(.start(deck))
            case .unload(let deck):
                loads.removeValue(forKey: deck)?.load.cancel()
                engine.enqueue(.unload(deck))
            case .pauseOutput: engine.enqueue(.pauseOutput)
            case .resumeOutput: engine.enqueue(.resumeOutput)
            case .seek(let deck, let to): engine.enqueue(.seek(deck, to))
            case .scheduleCrossfade(let from, let to, let duration, let curve, let at):
                engine.enqueue(.scheduleCrossfade(from: from, to: to, duration: duration, curve: curve, atPosition: at))
            case .continueCrossfade(let progress, _, _): engine.enqueue(.continueCrossfade(fromProgress: progress))
            case .quickFinishCrossfade(let duration): engine.enqueue(.quickFinishCrossfade(duration: duration))
            case .abortCrossfade(let keep): engine.enqueue(.abortCrossfade(keep: keep))
            case .fadeOut(let duration): engine.enqueue(.fadeOut(duration: duration))
            case .setVolume(let volume):
                engine.enqueue(.setVolume(volume.level))
                continuation.yield(.volume(volume, audioTime: audioTime))
            case .setSpeed(let speed):
                engine.enqueue(.setSpeed(speed.rate))
                continuation.yield(.speed(speed, audioTime: audioTime))
            case .setSilenceTrimming(let on):
                engine.enqueue(.setTrimsSilence(on))
            case .setLoudness(let levelling):
                engine.enqueue(.setLoudness(levelling))
                if levelling.isOn, let track = machine.state.currentTrack { measureInBackground(track) }
                publishLoudness()
            case .sleepTimerChanged(let timer):
                continuation.yield(.sleepTimer(timer, audioTime: audioTime, now: PlayerTime(seconds: clock.now())))
            case .reopenOutput: engine.enqueue(.reopenOutput)
            case .abandonConnection(let deck, let cause): loads[deck]?.load.connection.abandon(cause: cause)
            case .reopenConnection(let deck): loads[deck]?.load.connection.reopen()
            case .reconnectingInBackground(let on):
                if on, let cause = machine.backgroundReconnectCause { analytics?.observeBackgroundReconnect(cause) }
                publishConnection(force: true)
            case .scheduleTimer(let timer, let at): schedule(timer, at: at)
            case .cancelTimer(let slot): timers.cancel(slot)
            case .persistPosition(let point): notify(.savePosition(point))
            case .reportNonFatal(let error): notify(.nonFatal(error))
            case .recovered(let error, let how): notify(.recovered(error, by: how))
            case .warnKeepsDropping(let track, let drops): notify(.keepsDropping(track, drops: drops, within: DropWarning.window))
            case .trackFinished(let track): notify(.trackFinished(track))
            case .startLayers(let plan): startLayers(plan)
            case .armBell(let cue): engine.enqueue(.armBell(cue))
            case .duckBed(let on): engine.enqueue(.duckBed(on))
            case .endLayers: engine.enqueue(.endLayers)
            case .stopLayers: stopLayers()
            case .layersChanged(let status): continuation.yield(.layers(status, audioTime: audioTime))
            case .bellRang(let strike): notify(.bell(strike))
            }
        }
    }

    func notify(_ notice: PlayerNotice) {
        analytics?.observe(notice)
        continuation.yield(.notice(notice, audioTime: audioTime))
    }

}
