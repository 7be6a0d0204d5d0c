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
final class RenderEngine: @unchecked Sendable {
    let sink: any AudioSink
    let mode: RenderMode
    private let commands = CommandQueue()
    private let report: @Sendable (EngineReport, UInt64) -> Void
    private var sequence: UInt64 = 0
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    // Render-thread state.
    private var decks: [DeckID: Deck] = [:]
    private var expected: [DeckID: LoadID] = [:]
    private var audible: Set<DeckID> = []
    private var active: DeckID?
    private var crossfade: CrossfadeRamp?
    private var master = MasterGain()
    /// The listener's volume, apart from the master gain's pause ramps and fades so neither undoes
    /// the other.
    private var volume = MasterGain()
    /// The listener's speed, given to every deck installed.
    private var speed: Double
    /// Long silences shortened, on every deck installed.
    private var trimsSilence: Bool
    /// How loudness is levelled, for every deck installed.
    private var levelling: LoudnessLevelling
    /// Loudness measured after its track was queued, by track id.
    private var measuredLoudness: [String: Loudness] = [:]
    /// Keeps the mix under -1 dBTP once levelling or a volume above 100 % can push it there.
    /// In the chain from then on (it delays the sound by 1.5 ms, so it is not taken out and put
    /// back).
    private var limiter: TruePeakLimiter?
    /// The limiter is wanted and goes in at the next silent moment.
    private var limiterWanted = false
    /// The trimmed frames last reported, by deck.
    private var trimmedReported: [DeckID: Int64] = [:]
    private var holding = false
    private var outputDown = false
    private var framesWritten: Int64 = 0
    private var framesSinceReport: Int64 = 0
    private var underrunning: Set<DeckID> = []
    /// Decks whose source failed: reported once, then left alone until unloaded.
    private var failed: Set<DeckID> = []
    private var endReported: Set<DeckID> = []
    private var awaitingData: Set<DeckID> = []
    /// Decks whose source ran out in the block being rendered; reported once it is written.
    private var endedThisBlock: [DeckID] = []

    private var mix: [Float]
    private var scratchA: [Float]
    private var scratchB: [Float]
    let blockFrames: Int

    /// Reports every 100 ms of audio: positions and crossfade progress at 10 Hz, as promised.
    static let reportInterval: Int64 = 4_800
    /// A live stream playing alone reports every 500 ms: nothing is decided on its position (it
    /// has no end to fade or crossfade at), which is only shown. Each report wakes the player and
    /// its listeners; at 10 Hz they were a third of the CPU that a minute of radio costs.
    static let liveReportInterval: Int64 = 24_000

    /// How often the current state is reported: 10 Hz while anything may be decided on it.
    private var currentReportInterval: Int64 {
        guard let active, let deck = decks[active], deck.track.isLive, crossfade == nil, expected.isEmpty else { return Self.reportInterval }
        return Self.liveReportInterval
    }
    /// Render mode: within this many seconds of the active track's end, every report waits for
    /// the actor (a crossfade or the closing fade may be decided); further away none can be.
    static let decisionWindow: Double = 40
    /// Real time: after a start or seek, wait up to this long for the deck's first frames.
    static let startGrace: Double = 0.5
    /// Real time: an underrun of a local file ends when this much is buffered again.
    static let refillFrames = 24_000
    /// Thresholds of network decks.
    let network: NetworkBuffering

    init(
        sink: any AudioSink, mode: RenderMode, network: NetworkBuffering = NetworkBuffering(), volume: Double = 1, speed: Double = 1,
        trimsSilence: Bool = false, loudness: LoudnessLevelling = .off, report: @escaping @Sendable (EngineReport, UInt64) -> Void
    ) {
        self.sink = sink
        levelling = loudness
        // Nothing sounds yet: the limiter goes straight in.
        if loudness.isOn || volume > 1 { limiter = TruePeakLimiter(ceilingDecibels: LoudnessLevelling.truePeakCeiling) }
        self.speed = speed
        self.trimsSilence = trimsSilence
        self.volume.set(volume)
        self.mode = mode
        self.network = network
        self.report = report
        blockFrames = mode == .realtime ? 2_048 : 8_192
        mix = [Float](repeating: 0, count: blockFrames * AudioFormat.channelCount)
        scratchA = mix
        scratchB = mix
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
                if case .shutdown = command {
                    for deck in decks.values { deck.stop() }
                    decks.removeAll()
                    return
                }
                apply(command)
            }
            if !isIdle { renderBlock() }
        }
    }

    /// Nothing to do until a command arrives.
    private var isIdle: Bool {
        if holding || outputDown { return true }
        if mode == .asFastAsPossible && !expected.isEmpty { return true }  // wait for the load
        guard let active, audible.contains(active), let deck = decks[active] else { return true }
        if deck.reachedEnd && endReported.contains(active) && crossfade == nil { return true }
        if failed.contains(active) && crossfade == nil { return true }
        return false
    }

    private var crossfadeIncoming: Deck? {
        guard let c = crossfade, c.isStarted else { return nil }
        return decks[c.to]
    }

    /// Sends a report. In render mode it waits until the actor has handled it (lockstep), except
    /// for position reports far from any decision, which would only cost a thread hand-off each.
    private func emit(_ fact: EngineFact, lockstep: Bool = true) {
        sequence += 1
        report(EngineReport(fact: fact, audioTime: AudioFormat.seconds(forFrames: framesWritten)), sequence)
        if mode == .asFastAsPossible && lockstep { commands.waitForAcknowledgement(of: sequence) }
    }

    // MARK: Commands

    private func apply(_ command: EngineCommand) {
        switch command {
        case .expectLoad(let node, let id):
            expected[node] = id
        case .install(let deck):
            guard expected[deck.node] == deck.loadID else {
                deck.stop()
                return
            }
            expected[deck.node] = nil
            decks[deck.node]?.stop()
            deck.setRate(speed)
            deck.startLevelling(levelling, measured: measuredLoudness[deck.track.id])
            if trimsSilence { deck.setTrimsSilence(true) }
            trimmedReported[deck.node] = 0
            decks[deck.node] = deck
            audible.remove(deck.node)
            endReported.remove(deck.node)
            resetHealth(deck.node)
            if deck.isFiniteRecording { emit(.loadIsRecording(deck.loadID)) }
            emit(.loaded(deck.loadID, duration: deck.duration))
        case .loadFailed(let id, let error):
            guard let node = expected.first(where: { $0.value == id })?.key else { return }
            expected[node] = nil
            emit(.loadFailed(id, error))
        case .start(let node):
            guard decks[node] != nil else { return }
            audible.insert(node)
            active = node
            awaitingData.insert(node)
            holding = false
            master.set(0)
            master.ramp(to: 1, frames: MasterGain.declickFrames, shape: .cosine, completion: .none)
        case .unload(let node):
            decks[node]?.stop()
            decks[node] = nil
            expected[node] = nil
            audible.remove(node)
            resetHealth(node)
            if let c = crossfade, c.from == node || c.to == node {
                crossfade = nil
                // Unloading the outgoing deck mid-crossfade leaves the incoming one playing.
                if c.from == node, c.isStarted, decks[c.to] != nil {
                    active = c.to
                    audible.insert(c.to)
                }
            }
            if active == node { active = nil }
        case .pauseOutput:
            master.ramp(to: 0, frames: MasterGain.declickFrames, shape: .cosine, completion: .hold)
            if isIdleIgnoringHold { holding = true }
        case .resumeOutput:
            holding = false
            master.ramp(to: 1, frames: MasterGain.declickFrames, shape: .cosine, completion: .none)
        case .seek(let node, let seconds):
            decks[node]?.seek(to: seconds)
            endReported.remove(node)
            failed.remove(node)
            awaitingData.insert(node)
        case .scheduleCrossfade(let from, let to, let duration, let curve, let atPosition):
            guard decks[to] != nil, let fromDeck = decks[from] else { return }
            let startFrame = atPosition.map { AudioFormat.frames(forSeconds: $0) } ?? fromDeck.positionFrame
            crossfade = CrossfadeRamp(
                from: from, to: to, durationFrames: AudioFormat.frames(forSeconds: duration), curve: curve,
                startAtFromFrame: startFrame)
        case .continueCrossfade:
            crossfade?.resumeAtOriginalRate()
        case .quickFinishCrossfade(let duration):
            crossfade?.quickFinish(frames: AudioFormat.frames(forSeconds: duration))
        case .abortCrossfade(let keep):
            crossfade = nil
            let other = keep.opposite
            decks[other]?.stop()
            decks[other] = nil
            audible.remove(other)
            if decks[keep] != nil {
                audible.insert(keep)
                active = keep
            }
        case .setSpeed(let rate):
            speed = rate
            for deck in decks.values { deck.setRate(rate) }
        case .setTrimsSilence(let on):
            trimsSilence = on
            for deck in decks.values { deck.setTrimsSilence(on) }
        case .setVolume(let level):
            volume.ramp(to: level, frames: MasterGain.volumeRampFrames, shape: .cosine, completion: .none)
            if level > 1 { wantLimiter() }
        case .setLoudness(let levelling):
            self.levelling = levelling
            for deck in decks.values { deck.level.setLevelling(levelling) }
            if levelling.isOn { wantLimiter() }
        case .trackLoudness(let id, let loudness):
            measuredLoudness[id] = loudness
            for deck in decks.values where deck.track.id == id { deck.level.setLoudness(loudness) }
        case .fadeOut(let duration):
            master.ramp(to: 0, frames: AudioFormat.frames(forSeconds: duration), shape: .cosine, completion: .fadeOutDone)
            if isIdleIgnoringHold {
                // Nothing is sounding: the fade is over before it began.
                holding = true
                emit(.fadeOutCompleted)
            }
        case .reopenOutput:
            sink.close()
            do throws(PlaybackError) {
                try sink.open()
                outputDown = false
                emit(.outputRestored)
            } catch {
                emit(.outputLost(error))
            }
        case .shutdown:
            break
        }
    }

    /// Puts the limiter in the chain: at once when nothing sounds, else at the next silent frame
    /// (see `pursueLimiter`): its delay line starts empty, and inserted mid-sound it would click.
    private func wantLimiter() {
        guard limiter == nil, !limiterWanted else { return }
        limiterWanted = true
        if isIdleIgnoringHold || holding { insertLimiterIfWanted() }
    }

    /// Before each block while the limiter is wanted: in at once when the master gain is silent
    /// (a start, the end of a pause or a fade); else a 10 ms dip to silence, after which it goes
    /// in and the gain comes back. A pause or a fade already under way brings the silence itself.
    private func pursueLimiter() {
        guard limiterWanted, limiter == nil else { return }
        if master.value == 0 {
            insertLimiterIfWanted()
        } else if master.completion == .none {
            limiterResumeLevel = master.isRamping ? master.target : master.value
            master.ramp(to: 0, frames: MasterGain.declickFrames, shape: .cosine, completion: .insertLimiter)
        }
    }

    /// Where the master gain returns after the limiter's dip.
    private var limiterResumeLevel = 1.0

    private func insertLimiterIfWanted() {
        guard limiterWanted, limiter == nil else { return }
        limiterWanted = false
        limiter = TruePeakLimiter(ceilingDecibels: LoudnessLevelling.truePeakCeiling)
    }

    private var isIdleIgnoringHold: Bool {
        guard let active, audible.contains(active), decks[active] != nil else { return true }
        return false
    }

    // MARK: Rendering

    private func renderBlock() {
        guard let activeID = active, let activeDeck = decks[activeID] else { return }
        pursueLimiter()
        // Blocks end on report boundaries (positions every 100 ms of audio exactly) and where a
        // ramp ends, so decisions and fades land on exact frames.
        var frames = min(blockFrames, Int(max(1, currentReportInterval - framesSinceReport)))
        if master.isRamping { frames = min(frames, Int(max(1, master.remaining))) }

        // A crossfade armed for a frame of the outgoing track starts exactly there.
        if var c = crossfade, let startAt = c.startAtFromFrame, c.from == activeID {
            // A point past the source's real end (containers overstate lengths) means "at the end".
            let atEnd = activeDeck.isDrained
            // Media frames to the start, as frames of output at the deck's rate.
            let k = Int64((Double(startAt - activeDeck.positionFrame) / activeDeck.rate).rounded(.up))
            if k <= 0 || atEnd {
                c.startAtFromFrame = nil
                crossfade = c
                audible.insert(c.to)
                awaitingData.insert(c.to)
                emit(.crossfadeStarted)
                if c.durationFrames == 0 { completeCrossfade() }
                // Commands sent in answer (a pause at 0 %) apply before the first mixed frame.
                return
            } else if k < Int64(frames) {
                frames = Int(k)
            }
        }
        if let c = crossfade, c.isStarted, !c.isComplete {
            let left = Int64(((1 - c.progress) / max(c.rate, 1e-12)).rounded(.up))
            frames = min(frames, Int(max(1, left)))
        }

        let incoming = crossfadeIncoming
        let (gotA, okA) = pull(activeDeck, into: &scratchA, frames: frames)
        var gotB = 0
        if let incoming { (gotB, _) = pull(incoming, into: &scratchB, frames: frames) }
        guard okA else { return }
        // Nothing pulled and nothing to wait for: the end. (An underrun writes silence instead, so
        // the output's clock keeps running and the refill is noticed.)
        if gotA == 0, gotB == 0, incoming == nil, activeDeck.reachedEnd || !endedThisBlock.isEmpty {
            // Nothing left to play: report the end now instead of writing silence, once the
            // limiter has given back the last of the sound.
            drainLimiter()
            let ended = endedThisBlock
            endedThisBlock.removeAll()
            for node in ended { emit(.trackEnded(node)) }
            return
        }

        let volA = activeDeck.volume
        let volB = incoming?.volume ?? 0
        // The per-frame state lives in locals for the loop (no property access, no exclusivity
        // checks per sample) and is written back after it.
        var fade = incoming != nil ? crossfade : nil
        var gain = master
        var listener = volume
        var levelA = activeDeck.level.gain
        var levelB = incoming?.level.gain ?? MasterGain()
        let steady = fade == nil && !gain.isRamping && !listener.isRamping && !levelA.isRamping
        let steadyGain = Float(gain.value * listener.value * levelA.value) * volA
        mix.withUnsafeMutableBufferPointer { outBuffer in
            scratchA.withUnsafeBufferPointer { aBuffer in
                scratchB.withUnsafeBufferPointer { bBuffer in
                    let out = outBuffer.baseAddress!
                    let a = aBuffer.baseAddress!
                    let b = bBuffer.baseAddress!
                    if steady {
                        // One deck at a constant gain: a plain scaled copy.
                        for j in 0..<(gotA * 2) { out[j] = a[j] * steadyGain }
                        for j in (gotA * 2)..<(frames * 2) { out[j] = 0 }
                        return
                    }
                    for i in 0..<frames {
                        var gA: Float = volA * levelA.next()
                        var gB: Float = 0
                        if fade != nil {
                            let g = fade!.next()
                            gA *= g.outgoing
                            gB = g.incoming * volB * levelB.next()
                        }
                        let gm = gain.next() * listener.next()
                        let j = i &* 2
                        let aL: Float = i < gotA ? a[j] : 0
                        let aR: Float = i < gotA ? a[j &+ 1] : 0
                        let bL: Float = i < gotB ? b[j] : 0
                        let bR: Float = i < gotB ? b[j &+ 1] : 0
                        out[j] = (aL * gA + bL * gB) * gm
                        out[j &+ 1] = (aR * gA + bR * gB) * gm
                    }
                }
            }
        }
        if fade != nil { crossfade = fade }
        master = gain
        volume = listener
        if !steady { activeDeck.level.gain = levelA }
        if fade != nil { incoming?.level.gain = levelB }
        if let limiter { mix.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, frames: frames) } }

        do throws(PlaybackError) {
            try mix.withUnsafeBufferPointer { (samples) throws(PlaybackError) in try sink.write(samples.baseAddress!, frames: frames) }
        } catch {
            outputDown = true
            emit(.outputLost(error))
            return
        }
        framesWritten += Int64(frames)
        framesSinceReport += Int64(frames)

        if let c = crossfade, c.isStarted, c.isComplete {
            completeCrossfade()
        }
        // The end of a source is reported once its last frames are written, unless a crossfade is
        // armed from it: then the next block starts that crossfade at the end instead.
        let ended = endedThisBlock
        endedThisBlock.removeAll()
        for node in ended where !(crossfade?.from == node && crossfade?.isStarted == false) {
            emit(.trackEnded(node))
        }
        switch master.takeCompletion() {
        case .hold:
            holding = true
            insertLimiterIfWanted()
        case .fadeOutDone:
            holding = true
            insertLimiterIfWanted()
            emit(.fadeOutCompleted)
        case .insertLimiter:
            insertLimiterIfWanted()
            master.ramp(to: limiterResumeLevel, frames: MasterGain.declickFrames, shape: .cosine, completion: .none)
        case .none:
            break
        }
        if let change = sink.takeRouteChange() { emit(.routeChanged(change)) }
        if framesSinceReport >= currentReportInterval { reportProgress() }
    }

    /// Writes what the limiter still holds (the last 1.5 ms of the mix) at the end of playback.
    private func drainLimiter() {
        guard let limiter else { return }
        var tail = [Float](repeating: 0, count: TruePeakLimiter.latencyFrames * AudioFormat.channelCount)
        tail.withUnsafeMutableBufferPointer { limiter.drain(into: $0.baseAddress!) }
        do throws(PlaybackError) {
            try tail.withUnsafeBufferPointer { (samples) throws(PlaybackError) in
                try sink.write(samples.baseAddress!, frames: TruePeakLimiter.latencyFrames)
            }
            framesWritten += Int64(TruePeakLimiter.latencyFrames)
        } catch {
            outputDown = true
            emit(.outputLost(error))
        }
    }

    /// Pulls from a deck, reporting underruns, refills, ends and failures. Returns the frames
    /// pulled and false when rendering must stop for this block.
    private func pull(_ deck: Deck, into buffer: inout [Float], frames: Int) -> (Int, Bool) {
        let blocking = mode == .asFastAsPossible
        if !blocking, awaitingData.contains(deck.node) {
            // Right after a start or a seek the decoder is a moment behind: wait for its first
            // frames rather than open with silence (woken by each decoded chunk, not polled).
            let deadline = Date().addingTimeInterval(Self.startGrace)
            var buffered = deck.bufferedFrames
            while buffered < frames && !deck.sourceEnded && !deck.isStopped && Date() < deadline {
                buffered = deck.waitForBuffered(moreThan: buffered, until: deadline)
            }
        }
        awaitingData.remove(deck.node)
        if !blocking, underrunning.contains(deck.node) {
            // An underrunning deck stays silent until it holds its refill threshold again (or its
            // source has ended): played as they trickle in, fragments would stutter while the
            // listener is told "buffering", and the fill shown would never grow.
            guard deck.bufferedFrames >= refillFrames(for: deck) || deck.sourceEnded || deck.isStopped else { return (0, true) }
            underrunning.remove(deck.node)
            emit(.refilled(deck.node))
        }
        // Rendering blocks until the decoder delivers. A network deck says when that wait begins
        // and ends (the machine decides whether the wait is worth showing), never whether it is
        // too long; no lockstep, the wait is the point.
        let starving = blocking && deck.isNetwork && deck.bufferedFrames < frames && !deck.sourceEnded
        if starving, !underrunning.contains(deck.node) {
            underrunning.insert(deck.node)
            emit(.underrun(deck.node), lockstep: false)
        }
        let result = buffer.withUnsafeMutableBufferPointer { samples in
            let result = deck.pull(into: samples.baseAddress!, frames: frames, blocking: blocking)
            deck.level.observe(samples.baseAddress!, frames: result.frames)
            return result
        }
        if blocking, underrunning.contains(deck.node), result.frames > 0 || result.ended {
            underrunning.remove(deck.node)
            emit(.refilled(deck.node), lockstep: false)
        }
        if let error = result.error {
            if !failed.contains(deck.node) {
                failed.insert(deck.node)
                emit(.deckFailed(deck.node, error))
            }
            return (result.frames, false)
        }
        if result.ended {
            if !endReported.contains(deck.node) {
                endReported.insert(deck.node)
                endedThisBlock.append(deck.node)
                reportHeardLoudness(deck)
            }
        } else if blocking {
            // Rendering: underruns were handled around the blocking pull.
        } else if result.frames < frames, !underrunning.contains(deck.node) {
            underrunning.insert(deck.node)
            emit(.underrun(deck.node))
        }
        return (result.frames, true)
    }

    /// A network episode heard whole, start to end, with its loudness unknown: what was heard is
    /// its loudness from now on. (A file is measured whole in the background instead.)
    private func reportHeardLoudness(_ deck: Deck) {
        guard deck.isNetwork, !deck.track.isLive, deck.level.heardFromStart, !deck.level.isKnown,
            let integrated = deck.level.heardIntegrated, let loudness = Loudness(integrated: integrated, source: .heard)
        else { return }
        emit(.loudnessHeard(deck.track, loudness), lockstep: false)
    }

    /// Frames buffered again that end an underrun: about 2 s for a network deck, less for a file.
    private func refillFrames(for deck: Deck) -> Int {
        deck.isNetwork ? Int(AudioFormat.frames(forSeconds: network.refillSeconds)) : Self.refillFrames
    }

    /// Forgets a deck's underrun and failure (a new deck in its slot, or it was unloaded).
    private func resetHealth(_ node: DeckID) {
        failed.remove(node)
        underrunning.remove(node)
    }

    /// While a network deck underruns in real time: its fill towards the refill threshold.
    private func reportUnderrun(_ deck: Deck) {
        guard deck.isNetwork, mode == .realtime else { return }
        emit(.bufferProgress(deck.node, fill: Float(min(1, Double(deck.bufferedFrames) / Double(refillFrames(for: deck))))))
    }

    private func completeCrossfade() {
        guard let c = crossfade else { return }
        let fromPosition = decks[c.from]?.position ?? 0
        let toPosition = decks[c.to]?.position ?? 0
        emit(.crossfadeProgress(1, fromPosition: fromPosition, toPosition: toPosition))
        crossfade = nil
        audible.remove(c.from)
        active = c.to
        emit(.crossfadeCompleted)
    }

    private func reportProgress() {
        framesSinceReport = 0
        if let c = crossfade, c.isStarted {
            emit(.crossfadeProgress(Float(c.progress), fromPosition: decks[c.from]?.position ?? 0, toPosition: decks[c.to]?.position ?? 0))
        } else if let active, let deck = decks[active] {
            if underrunning.contains(active) { reportUnderrun(deck) }
            let remaining = deck.duration.map { $0 - deck.position } ?? 0
            let decisionNear = remaining < Self.decisionWindow || !expected.isEmpty || crossfade != nil
            let buffered = deck.isNetwork ? AudioFormat.seconds(forFrames: Int64(deck.bufferedFrames)) : nil
            emit(.position(active, position: deck.position, duration: deck.duration, buffered: buffered), lockstep: decisionNear)
            if deck.trimmedFrames > trimmedReported[active, default: 0] {
                trimmedReported[active] = deck.trimmedFrames
                emit(.silenceTrimmed(active, seconds: AudioFormat.seconds(forFrames: deck.trimmedFrames)), lockstep: false)
            }
        }
    }
}
