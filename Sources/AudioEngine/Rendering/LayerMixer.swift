import Foundation
import Media
import PlayerCore

/// A session's layers on the render thread: the session's clock, the bed with its fade and duck
/// envelopes, and bell strikes started on their exact frames. Each block it renders the layers
/// into a buffer that the mix kernel adds under the master gain and the listener's volume (so a
/// pause, a stop's fade and the volume apply to the whole session), beside the stages' decks and
/// their crossfade, which it never touches: each layer keeps its own level through a crossfade.
///
/// The clock counts the session's time as its stages play it, since the first stage started: the
/// frames mixed times the stages' speed (a session of 12 s at 1.5x takes 8 s, and its bells and
/// end keep to the stages). It stops while the output holds (paused) and moves with a seek of the
/// current stage. A strike due while the output is ramping down to a pause waits for the resume,
/// so it is heard whole. The bed and the bells themselves always sound at their own speed.
struct LayerMixer {
    let plan: LayerPlan
    /// Frames of the session played so far (at 48 kHz of the stages' time, fractional at another
    /// speed); nil until the first stage starts.
    private(set) var clock: Double?
    private(set) var bed: Deck?
    private(set) var bell: BellSound?
    /// The bed's fade in and out, and its duck under a voice.
    private var fade = MasterGain()
    private var duck = MasterGain()
    private var ducked = false
    private var bedFadeStarted = false
    /// Strikes armed and not yet started: (session frame, cue, strike number).
    private var pending: [(frame: Int64, cue: BellCue, strike: Int)] = []
    /// Where the last seek put the clock: a strike before it was jumped over (and told as such
    /// by the state machine), even when its arm was decided before the jump was heard of.
    private var landed: Double = 0
    /// Ringing strikes: read offsets into the bell's frames.
    private var voices: [Int] = []
    /// The stages are over: the bed fades out, bells ring out, then the layers are finished.
    private(set) var ending = false
    private(set) var finished = false
    /// The bed's deck failed or ended: it is silent from then on.
    private var bedGone = false
    /// The layers of one block, ready to add to the mix.
    private(set) var output: [Float]

    /// At most this many strikes ring at once (a new one takes the oldest one's place).
    static let maximumVoices = 8

    init(plan: LayerPlan, blockFrames: Int) {
        self.plan = plan
        output = [Float](repeating: 0, count: blockFrames * AudioFormat.channelCount)
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

    /// Strikes `cue` on its frames, replacing the cue armed before. Strikes due before the clock
    /// (a bell armed late) sound at once, except those a seek jumped over: an arm sent in answer
    /// to a strike may cross a seek on its way here, and a bell told as skipped must not be heard.
    mutating func arm(_ cue: BellCue) {
        guard let bells = plan.bells else { return }
        pending.removeAll(keepingCapacity: true)
        for (i, t) in bells.strikeTimes(of: cue).enumerated() {
            let frame = AudioFormat.frames(forSeconds: t)
            if Double(frame) < landed { continue }
            pending.append((frame, cue, i + 1))
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
        let after = max(0, before + Double(AudioFormat.frames(forSeconds: abs(delta))) * (delta < 0 ? -1 : 1))
        clock = after
        landed = after
        pending.removeAll { Double($0.frame) < after }
        return (before / Self.rate, after / Self.rate)
    }

    /// Something sounds, or is still to sound while the session closes: the bed, a ringing bell,
    /// a strike armed for the session's end.
    var isSounding: Bool {
        guard clock != nil, !finished else { return false }
        return ending || !voices.isEmpty || (bed != nil && !bedGone)
    }

    /// The session's clock in seconds (0 before it starts).
    var sessionTime: Double { (clock ?? 0) / Self.rate }

    private static let rate = Double(AudioFormat.sampleRate)

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

    /// Renders `frames` frames of the layers into `output` and advances the clock by as much of
    /// the stages' time (`speed`: the stages' rate). `pausing`: the output is ramping down to a
    /// pause, so no strike starts. `blocking`: wait for the bed's decoder (rendering as fast as
    /// possible). Returns the strikes started, with the session time each sounded at; `finished`
    /// turns true in the block where a closing session falls silent.
    mutating func render(frames: Int, speed: Double, pausing: Bool, blocking: Bool) -> [(cue: BellCue, strike: Int, sessionTime: Double, offset: Int)] {
        let count = frames * AudioFormat.channelCount
        guard let now = clock, !finished else {
            for j in 0..<count { output[j] = 0 }
            return []
        }
        let speed = speed.isFinite && speed > 0 ? speed : 1
        let end = now + Double(frames) * speed
        var struck: [(cue: BellCue, strike: Int, sessionTime: Double, offset: Int)] = []
        // Strikes due in this block start on the first frame at or after their time (late
        // ones, on its first frame).
        if !pausing, bell != nil {
            while let first = pending.first, Double(first.frame) < end {
                pending.removeFirst()
                let offset = min(frames - 1, Int(max(0, ((Double(first.frame) - now) / speed).rounded(.up))))
                if voices.count == Self.maximumVoices { voices.removeFirst() }
                // A voice's read offset runs negative until its strike frame inside this block.
                voices.append(-offset)
                struck.append((first.cue, first.strike, (now + Double(offset) * speed) / Self.rate, offset))
            }
        }
        renderBed(frames: frames, blocking: blocking)
        mixBells(frames: frames)
        clock = end
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
        // The bed's frames go straight into `output` and are scaled there.
        let pulled = output.withUnsafeMutableBufferPointer { bed.pull(into: $0.baseAddress!, frames: frames, blocking: blocking) }
        if pulled.error != nil || (pulled.frames == 0 && pulled.ended) { bedGone = true }
        let got = min(frames, pulled.frames) * AudioFormat.channelCount
        let level = spec.level
        var fade = self.fade
        var duck = self.duck
        output.withUnsafeMutableBufferPointer { out in
            if !fade.isRamping && !duck.isRamping {
                // Most of a session: one gain for the whole block.
                let g = level * fade.next() * duck.next()
                for j in 0..<got { out[j] *= g }
            } else {
                for i in 0..<frames {
                    let g = level * fade.next() * duck.next()
                    let j = i &* 2
                    guard j < got else { continue }
                    out[j] *= g
                    out[j &+ 1] *= g
                }
            }
            for j in got..<count { out[j] = 0 }
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
