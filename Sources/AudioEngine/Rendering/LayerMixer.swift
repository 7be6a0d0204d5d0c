import Foundation
import Media
import PlayerCore

/// A session's layers on the render thread: the session's clock, the bed with its fade and duck
/// envelopes, and bell strikes started on their exact frames. Each block it renders the layers
/// into a buffer that the mix kernel adds under the master gain and the listener's volume (so a
/// pause, a stop's fade and the volume apply to the whole session), beside the stages' decks and
/// their crossfade, which it never touches: each layer keeps its own level through a crossfade.
///
/// The clock counts frames mixed since the session's first stage started; it stops while the
/// output holds (paused) and moves with a seek of the current stage. A strike due while the output
/// is ramping down to a pause waits for the resume, so it is heard whole.
struct LayerMixer {
    let plan: LayerPlan
    /// Frames of the session heard so far; nil until the first stage starts.
    private(set) var clock: Int64?
    private(set) var bed: Deck?
    private(set) var bell: BellSound?
    /// The bed's fade in and out, and its duck under a voice.
    private var fade = MasterGain()
    private var duck = MasterGain()
    private var ducked = false
    private var bedFadeStarted = false
    /// Strikes armed and not yet started: (session frame, cue, strike number).
    private var pending: [(frame: Int64, cue: BellCue, strike: Int)] = []
    /// Ringing strikes: read offsets into the bell's frames.
    private var voices: [Int] = []
    /// The stages are over: the bed fades out, bells ring out, then the layers are finished.
    private(set) var ending = false
    private(set) var finished = false
    /// The bed's deck failed or ended: it is silent from then on.
    private var bedGone = false
    /// Scratch for the bed's frames, one block long.
    private var bedFrames: [Float]
    /// The layers of one block, ready to add to the mix.
    private(set) var output: [Float]

    /// At most this many strikes ring at once (a new one takes the oldest one's place).
    static let maximumVoices = 8

    init(plan: LayerPlan, blockFrames: Int) {
        self.plan = plan
        output = [Float](repeating: 0, count: blockFrames * AudioFormat.channelCount)
        bedFrames = output
        fade.set(0)
        duck.set(1)
        voices.reserveCapacity(Self.maximumVoices)
        pending.reserveCapacity(8)
    }

    /// The session's first stage started: the clock runs from 0 and the bed fades in.
    mutating func stageStarted() {
        guard clock == nil else { return }
        clock = 0
        startBedFadeIfReady()
    }

    /// The bed and the bell have been opened (or failed to).
    private(set) var soundsInstalled = false

    mutating func install(bed: Deck?, bell: BellSound?) {
        soundsInstalled = true
        self.bed = bed
        self.bell = bell
        if plan.bed != nil && bed == nil { bedGone = true }
        startBedFadeIfReady()
    }

    private mutating func startBedFadeIfReady() {
        guard let spec = plan.bed, bed != nil, clock != nil, !bedFadeStarted, !ending else { return }
        bedFadeStarted = true
        fade.ramp(to: 1, frames: AudioFormat.frames(forSeconds: spec.fadeIn), shape: .cosine, completion: .none)
    }

    mutating func arm(_ cue: BellCue) {
        guard let bells = plan.bells else { return }
        pending.removeAll(keepingCapacity: true)
        for (i, t) in bells.strikeTimes(of: cue).enumerated() {
            pending.append((AudioFormat.frames(forSeconds: t), cue, i + 1))
        }
    }

    mutating func setDucked(_ on: Bool) {
        guard let spec = plan.bed, on != ducked else { return }
        ducked = on
        let target = on ? Double(spec.duckGain) : 1
        duck.ramp(to: target, frames: AudioFormat.frames(forSeconds: on ? spec.attack : spec.release), shape: .cosine, completion: .none)
    }

    mutating func end() {
        guard !ending else { return }
        ending = true
        if let spec = plan.bed, bed != nil, !bedGone {
            fade.ramp(to: 0, frames: AudioFormat.frames(forSeconds: spec.fadeOut), shape: .cosine, completion: .none)
        }
    }

    /// A seek of the current stage moved by `delta` media seconds: the clock moves as much
    /// (never below 0), and strikes it jumped over are dropped (the state machine tells them).
    /// Returns the clock before and after, in seconds; nil before the session has started.
    mutating func seeked(by delta: Double) -> (from: Double, to: Double)? {
        guard let before = clock else { return nil }
        let after = max(0, before + AudioFormat.frames(forSeconds: abs(delta)) * (delta < 0 ? -1 : 1))
        clock = after
        pending.removeAll { $0.frame < after }
        return (AudioFormat.seconds(forFrames: before), AudioFormat.seconds(forFrames: after))
    }

    /// Something sounds, or is still to sound while the session closes: the bed, a ringing bell,
    /// a strike armed for the session's end.
    var isSounding: Bool {
        guard clock != nil, !finished else { return false }
        return ending || !voices.isEmpty || (bed != nil && !bedGone)
    }

    /// The session's clock in seconds (0 before it starts).
    var sessionTime: Double { AudioFormat.seconds(forFrames: clock ?? 0) }

    /// What the bed is doing, for the reports; nil without a bed.
    var bedStatus: BedStatus? {
        guard plan.bed != nil else { return nil }
        let level = Float(fade.value * duck.value) * (plan.bed?.level ?? 0)
        if bedGone || (ending && !fade.isRamping) { return BedStatus(phase: .ended, level: 0) }
        if bed == nil || !bedFadeStarted { return BedStatus(phase: .loading, level: 0) }
        if ending { return BedStatus(phase: .fadingOut, level: level) }
        if fade.isRamping { return BedStatus(phase: .fadingIn, level: level) }
        if duck.isRamping { return BedStatus(phase: ducked ? .ducking : .releasing, level: level) }
        return BedStatus(phase: ducked ? .ducked : .playing, level: level)
    }

    /// Renders `frames` frames of the layers into `output` and advances the clock. `pausing`: the
    /// output is ramping down to a pause, so no strike starts. `blocking`: wait for the bed's
    /// decoder (rendering as fast as possible). Returns the strikes started, with their session
    /// frame; `finished` turns true in the block where a closing session falls silent.
    mutating func render(frames: Int, pausing: Bool, blocking: Bool) -> [(cue: BellCue, strike: Int, frame: Int64)] {
        let count = frames * AudioFormat.channelCount
        guard let now = clock, !finished else {
            for j in 0..<count { output[j] = 0 }
            return []
        }
        var struck: [(cue: BellCue, strike: Int, frame: Int64)] = []
        // Strikes due in this block start at their frame (late ones, at its first frame).
        if !pausing, bell != nil {
            while let first = pending.first, first.frame < now + Int64(frames) {
                pending.removeFirst()
                let offset = Int(max(0, first.frame - now))
                if voices.count == Self.maximumVoices { voices.removeFirst() }
                // A voice's read offset runs negative until its strike frame inside this block.
                voices.append(-offset)
                struck.append((first.cue, first.strike, now + Int64(offset)))
            }
        }
        renderBed(frames: frames, blocking: blocking)
        mixBells(frames: frames)
        clock = now + Int64(frames)
        // A strike that can never sound (its bell failed to open) does not hold the close.
        if ending && voices.isEmpty && (pending.isEmpty || bell == nil) && !fade.isRamping {
            finished = true
        }
        return struck
    }

    /// The bed's frames times its level, fade and duck, into `output` (silence without a bed).
    private mutating func renderBed(frames: Int, blocking: Bool) {
        let count = frames * AudioFormat.channelCount
        guard let spec = plan.bed, let bed, !bedGone, bedFadeStarted else {
            for j in 0..<count { output[j] = 0 }
            return
        }
        let pulled = bedFrames.withUnsafeMutableBufferPointer { bed.pull(into: $0.baseAddress!, frames: frames, blocking: blocking) }
        if pulled.error != nil || (pulled.frames == 0 && pulled.ended) { bedGone = true }
        let got = pulled.frames
        let level = spec.level
        var fade = self.fade
        var duck = self.duck
        output.withUnsafeMutableBufferPointer { out in
            bedFrames.withUnsafeBufferPointer { src in
                for i in 0..<frames {
                    let g = level * fade.next() * duck.next()
                    let j = i &* 2
                    out[j] = i < got ? src[j] * g : 0
                    out[j &+ 1] = i < got ? src[j &+ 1] * g : 0
                }
            }
        }
        self.fade = fade
        self.duck = duck
    }

    /// Adds the ringing strikes into `output`, each at the bells' level; drops those rung out.
    private mutating func mixBells(frames: Int) {
        guard let bell, !voices.isEmpty, let level = plan.bells?.level else { return }
        let total = bell.frames
        output.withUnsafeMutableBufferPointer { out in
            bell.samples.withUnsafeBufferPointer { src in
                for v in voices.indices {
                    let start = voices[v]
                    // Frames of this block before the strike (negative start) stay silent.
                    let first = max(0, -start)
                    let last = min(frames, total - start)
                    if first < last {
                        for i in first..<last {
                            let s = (start + i) &* 2
                            let j = i &* 2
                            out[j] += src[s] * level
                            out[j &+ 1] += src[s &+ 1] * level
                        }
                    }
                    voices[v] = start + frames
                }
            }
        }
        voices.removeAll { $0 >= total }
    }

    /// Releases the bed's deck.
    func stop() {
        bed?.stop()
    }
}
