import Foundation
import Media
import PlayerCore

/// The render thread: pulls frames from the decks, applies crossfade and master gains, writes to
/// the sink, and reports what happened (positions, crossfade progress, ends, output loss).
///
/// It performs the state machine's effects literally and decides nothing about playback; all its
/// reports come from this one thread, in order, stamped with the audio clock (frames written).
/// In render mode it runs in lockstep with the player actor: after each report it waits until the
/// actor has handled it, so rendering can never outrun a decision (a crossfade being armed).
///
/// Its parts: `MixerState` and its `apply` (what each command does to the decks and the mix),
/// `MixKernel` (the gains of a block, and writing it), `DeckHealth` (underruns, refills, ends, the
/// first frames after a start or a seek). This type is the loop, the blocks' bounds and the reports.
///
/// `@unchecked Sendable`: the mix state, kernel and counters belong to the render thread alone;
/// the player actor reaches it through `commands` (a lock and a condition), and sets `thread`
/// only in `start` and `shutdown`.
final class RenderEngine: @unchecked Sendable {
    let sink: any AudioSink
    let mode: RenderMode
    /// The blocks written, for a level meter.
    let tap = OutputTap()
    private let commands = CommandQueue()
    private let report: @Sendable (EngineReport, UInt64) -> Void
    private var sequence: UInt64 = 0
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    // Render-thread state.
    private var state: MixerState
    private var kernel: MixKernel
    private var outputDown = false
    private var framesWritten: Int64 = 0
    private var framesSinceReport: Int64 = 0

    /// Reports every 100 ms of audio: positions and crossfade progress at 10 Hz, as promised.
    static let reportInterval: Int64 = 4_800
    /// A live stream playing alone reports every 500 ms: nothing is decided on its position (it
    /// has no end to fade or crossfade at), which is only shown. Each report wakes the player and
    /// its listeners; at 10 Hz they were a third of the CPU that a minute of radio costs.
    static let liveReportInterval: Int64 = 24_000

    /// How often the current state is reported: 10 Hz while anything may be decided on it.
    private var currentReportInterval: Int64 {
        guard let active = state.active, let deck = state.decks[active], deck.track.isLive, state.crossfade == nil, state.expected.isEmpty
        else { return Self.reportInterval }
        return Self.liveReportInterval
    }
    /// Render mode: within this many seconds of the active track's end, every report waits for
    /// the actor (a crossfade or the closing fade may be decided); further away none can be.
    static let decisionWindow: Double = 40

    init(
        sink: any AudioSink, mode: RenderMode, network: NetworkBuffering = NetworkBuffering(), volume: Double = 1, speed: Double = 1,
        trimsSilence: Bool = false, loudness: LoudnessLevelling = .off, report: @escaping @Sendable (EngineReport, UInt64) -> Void
    ) {
        self.sink = sink
        self.mode = mode
        self.report = report
        let blockFrames = mode == .realtime ? 2_048 : 8_192
        state = MixerState(
            mode: mode, network: network, volume: volume, speed: speed, trimsSilence: trimsSilence, loudness: loudness, blockFrames: blockFrames)
        kernel = MixKernel(blockFrames: blockFrames)
    }

    func enqueue(_ command: EngineCommand) { commands.enqueue(command) }

    func acknowledge(_ sequence: UInt64) { commands.acknowledge(sequence) }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "tonearm.render"
        thread.qualityOfService = .userInteractive
        self.thread = thread
        thread.start()
    }

    /// Stops the thread and releases the decks; waits for it to end.
    func shutdown() {
        commands.enqueue(.shutdown)
        if thread != nil { finished.wait() }
        thread = nil
    }

    // MARK: The loop

    private func run() {
        defer { finished.signal() }
        while true {
            for command in commands.takeAll(wait: isIdle) {
                switch command {
                case .shutdown:
                    for deck in state.decks.values { deck.stop() }
                    state.decks.removeAll()
                    state.layers?.stop()
                    state.layers = nil
                    return
                case .reopenOutput:
                    reopenOutput()
                default:
                    for fact in state.apply(command) { emit(fact) }
                }
            }
            if !isIdle { renderBlock() }
        }
    }

    /// Nothing to do until a command arrives.
    private var isIdle: Bool {
        if state.holding || outputDown { return true }
        if mode == .asFastAsPossible && !state.expected.isEmpty { return true }  // wait for the load
        // Rendering waits for a session's bed and bell too, so its first bell is on its frame.
        if mode == .asFastAsPossible, let layers = state.layers, !layers.soundsInstalled { return true }
        guard let active = state.active, state.audible.contains(active), let deck = state.decks[active] else { return true }
        if deck.reachedEnd && state.health.hasReportedEnd(active) && state.crossfade == nil && !state.layersSounding { return true }
        if state.health.hasFailed(active) && state.crossfade == nil { return true }
        return false
    }

    /// Sends a report. In render mode it waits until the actor has handled it (lockstep), except
    /// for position reports far from any decision, which would only cost a thread hand-off each.
    private func emit(_ fact: EngineFact, lockstep: Bool = true) {
        sequence += 1
        report(EngineReport(fact: fact, audioTime: AudioFormat.seconds(forFrames: framesWritten)), sequence)
        if mode == .asFastAsPossible && lockstep { commands.waitForAcknowledgement(of: sequence) }
    }

    private func reopenOutput() {
        sink.close()
        do throws(PlaybackError) {
            try sink.open()
            outputDown = false
            emit(.outputRestored)
        } catch {
            emit(.outputLost(error))
        }
    }

    // MARK: Rendering

    private func renderBlock() {
        guard let activeID = state.active, let activeDeck = state.decks[activeID] else { return }
        state.pursueLimiter()
        // Blocks end on report boundaries (positions every 100 ms of audio exactly) and where a
        // ramp ends, so decisions and fades land on exact frames.
        var frames = min(kernel.blockFrames, Int(max(1, currentReportInterval - framesSinceReport)))
        if state.master.isRamping { frames = min(frames, Int(max(1, state.master.remaining))) }

        // A crossfade armed for a frame of the outgoing track starts exactly there.
        if var c = state.crossfade, let startAt = c.startAtFromFrame, c.from == activeID {
            // A point past the source's real end (containers overstate lengths) means "at the end".
            let atEnd = activeDeck.isDrained
            // Media frames to the start, as frames of output at the deck's rate.
            let k = Int64((Double(startAt - activeDeck.positionFrame) / activeDeck.rate).rounded(.up))
            if k <= 0 || atEnd {
                c.startAtFromFrame = nil
                state.crossfade = c
                state.audible.insert(c.to)
                state.health.starts(c.to)
                emit(.crossfadeStarted)
                if c.durationFrames == 0 { completeCrossfade() }
                // Commands sent in answer (a pause at 0 %) apply before the first mixed frame.
                return
            } else if k < Int64(frames) {
                frames = Int(k)
            }
        }
        if let c = state.crossfade, c.isStarted, !c.isComplete {
            let left = Int64(((1 - c.progress) / max(c.rate, 1e-12)).rounded(.up))
            frames = min(frames, Int(max(1, left)))
        }

        let incoming = state.crossfadeIncoming
        // A deck awaiting its first frames is given silence up to the end of its grace, exactly.
        if let grace = state.health.framesBeforeGraceEnds(activeDeck) { frames = min(frames, grace) }
        if let incoming, let grace = state.health.framesBeforeGraceEnds(incoming) { frames = min(frames, grace) }
        let (gotA, okA) = state.health.pull(activeDeck, into: &kernel.deckA, frames: frames) { emit($0, lockstep: $1) }
        var gotB = 0
        if let incoming { (gotB, _) = state.health.pull(incoming, into: &kernel.deckB, frames: frames) { emit($0, lockstep: $1) } }
        guard okA else { return }
        // A source that ends inside the block ends the block with its last frame: the rest would
        // be silence written between gapless tracks (the next one starts with the next block) and
        // after the last one. Only without an incoming deck: a crossfade mixes on over the end.
        if incoming == nil, gotA > 0, gotA < frames, activeDeck.reachedEnd { frames = gotA }
        // Nothing pulled and nothing to wait for: the end. (An underrun writes silence instead, so
        // the output's clock keeps running and the refill is noticed.)
        if gotA == 0, gotB == 0, incoming == nil, activeDeck.reachedEnd || state.health.hasEndedThisBlock {
            guard state.layersSounding else {
                // Nothing left to play: report the end now instead of writing silence, once the
                // limiter has given back the last of the sound.
                drainLimiter()
                for node in state.health.takeEnded() { emit(.trackEnded(node)) }
                return
            }
            // A session's layers go on after its last stage: its end is told, and they are mixed.
            for node in state.health.takeEnded() { emit(.trackEnded(node)) }
        }
        let pausing = state.isPausing
        let struck = state.layers?.render(frames: frames, speed: activeDeck.rate, pausing: pausing, blocking: mode == .asFastAsPossible) ?? []

        var gains = BlockGains(
            volumeA: activeDeck.volume, levelA: activeDeck.level.gain, volumeB: incoming?.volume ?? 0,
            levelB: incoming?.level.gain ?? MasterGain(), crossfade: incoming != nil ? state.crossfade : nil,
            master: state.master, listener: state.volume)
        let steady = gains.isSteady && state.layers == nil
        if let layers = state.layers {
            layers.output.withUnsafeBufferPointer { kernel.mix(frames: frames, framesA: gotA, framesB: gotB, gains: &gains, layers: $0.baseAddress) }
        } else {
            kernel.mix(frames: frames, framesA: gotA, framesB: gotB, gains: &gains)
        }
        if gains.crossfade != nil { state.crossfade = gains.crossfade }
        state.master = gains.master
        state.volume = gains.listener
        if !steady { activeDeck.level.gain = gains.levelA }
        if gains.crossfade != nil { incoming?.level.gain = gains.levelB }
        kernel.limit(frames: frames, with: state.limiter.limiter)

        do throws(PlaybackError) {
            try kernel.write(frames: frames, to: sink)
        } catch {
            outputDown = true
            emit(.outputLost(error))
            return
        }
        kernel.output.withUnsafeBufferPointer { tap.record($0.baseAddress!, frames: frames) }
        framesWritten += Int64(frames)
        framesSinceReport += Int64(frames)

        if let c = state.crossfade, c.isStarted, c.isComplete {
            completeCrossfade()
        }
        // The block's first frame is `framesWritten - frames` on the audio clock.
        for strike in struck {
            emit(.bellStruck(
                strike.cue, strike: strike.strike, sessionTime: strike.sessionTime,
                audioTime: AudioFormat.seconds(forFrames: framesWritten - Int64(frames) + Int64(strike.offset))))
        }
        if state.layers?.finished == true, !state.layersFinishedReported {
            state.layersFinishedReported = true
            emit(.layersFinished)
        }
        // The end of a source is reported once its last frames are written, unless a crossfade is
        // armed from it: then the next block starts that crossfade at the end instead.
        for node in state.health.takeEnded() where !(state.crossfade?.from == node && state.crossfade?.isStarted == false) {
            emit(.trackEnded(node))
        }
        if state.masterRampEnded() { emit(.fadeOutCompleted) }
        if let change = sink.takeRouteChange() { emit(.routeChanged(change)) }
        if framesSinceReport >= currentReportInterval { reportProgress() }
    }

    /// Writes what the limiter still holds (the last 1.5 ms of the mix) at the end of playback.
    private func drainLimiter() {
        guard let limiter = state.limiter.limiter else { return }
        do throws(PlaybackError) {
            framesWritten += Int64(try MixKernel.writeTail(of: limiter, to: sink))
        } catch {
            outputDown = true
            emit(.outputLost(error))
        }
    }

    // MARK: Reports

    private func completeCrossfade() {
        guard let c = state.crossfade else { return }
        let fromPosition = state.decks[c.from]?.position ?? 0
        let toPosition = state.decks[c.to]?.position ?? 0
        emit(.crossfadeProgress(1, fromPosition: fromPosition, toPosition: toPosition))
        state.completeCrossfade(c)
        emit(.crossfadeCompleted)
    }

    private func reportProgress() {
        framesSinceReport = 0
        if let layers = state.layers, layers.clock != nil {
            emit(.layersProgress(sessionTime: layers.sessionTime, bed: layers.bedStatus), lockstep: false)
        }
        if let c = state.crossfade, c.isStarted {
            emit(.crossfadeProgress(
                Float(c.progress), fromPosition: state.decks[c.from]?.position ?? 0, toPosition: state.decks[c.to]?.position ?? 0))
        } else if let active = state.active, let deck = state.decks[active] {
            if let fill = state.health.refillProgress(deck) { emit(.bufferProgress(deck.node, fill: fill)) }
            let remaining = deck.duration.map { $0 - deck.position } ?? 0
            let decisionNear = remaining < Self.decisionWindow || !state.expected.isEmpty || state.crossfade != nil
            let buffered = deck.isNetwork ? AudioFormat.seconds(forFrames: Int64(deck.bufferedFrames)) : nil
            emit(.position(active, position: deck.position, duration: deck.duration, buffered: buffered), lockstep: decisionNear)
            if deck.trimmedFrames > state.trimmedReported[active, default: 0] {
                state.trimmedReported[active] = deck.trimmedFrames
                emit(.silenceTrimmed(active, seconds: AudioFormat.seconds(forFrames: deck.trimmedFrames)), lockstep: false)
            }
        }
    }
}
