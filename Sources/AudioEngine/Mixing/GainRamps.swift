import Foundation
import PlayerCore

/// A gain that ramps: the master gain (de-click ramps for pause/resume, <= 20 ms, and the stop
/// fade-out) and the listener's volume. Advances one frame at a time so a fade ends on an exact frame.
struct MasterGain: Sendable {
    /// What happens when a ramp reaches its target.
    enum Completion: Sendable, Equatable {
        case none, hold, fadeOutDone
        /// The dip that lets the limiter into the chain without a click (see `LimiterInsertion`).
        case insertLimiter
    }

    private(set) var value: Double = 1
    private var start: Double = 1
    /// Where the ramp under way goes (the value itself once it is over).
    private(set) var target: Double = 1
    private var length: Int64 = 0
    private var done: Int64 = 0
    private var shape: Shape = .linear
    private(set) var completion: Completion = .none

    enum Shape: Sendable { case linear, cosine }

    /// De-click ramp length: 10 ms.
    static let declickFrames: Int64 = 480
    /// A volume change glides over 50 ms: long enough that no step is heard (no zipper noise),
    /// short enough to feel immediate.
    static let volumeRampFrames: Int64 = 2_400

    var isRamping: Bool { done < length }

    /// Frames left in the ramp.
    var remaining: Int64 { max(0, length - done) }

    mutating func ramp(to target: Double, frames: Int64, shape: Shape, completion: Completion) {
        start = value
        self.target = target
        length = max(0, frames)
        done = 0
        self.shape = shape
        self.completion = completion
        if length == 0 { value = target }
    }

    mutating func set(_ v: Double) {
        value = v
        start = v
        target = v
        length = 0
        done = 0
        completion = .none
    }

    /// The gain for the next frame; advances the ramp.
    @inline(__always)
    mutating func next() -> Float {
        guard done < length else { return Float(value) }
        done += 1
        let x = Double(done) / Double(length)
        let k = shape == .linear ? x : (1 - cos(x * .pi)) / 2
        value = start + (target - start) * k
        return Float(value)
    }

    /// The completion to act on once the ramp has run out, cleared by the call.
    mutating func takeCompletion() -> Completion {
        guard done >= length, completion != .none else { return .none }
        let c = completion
        completion = .none
        return c
    }
}

/// A crossfade between two decks: progress runs 0...1 at `rate` per output frame; the gains come
/// from `FadeCurve`, exactly the function the state machine uses for pause snapshots.
struct CrossfadeRamp: Sendable {
    let from: DeckID
    let to: DeckID
    let curve: FadeCurve
    /// The crossfade's full length, frames (for the snapshot's original duration).
    let durationFrames: Int64
    private(set) var progress: Double
    private(set) var rate: Double
    /// Frame of the outgoing track at which mixing begins; nil once started.
    var startAtFromFrame: Int64?

    init(from: DeckID, to: DeckID, durationFrames: Int64, curve: FadeCurve, startAtFromFrame: Int64?) {
        self.from = from
        self.to = to
        self.curve = curve
        self.durationFrames = max(0, durationFrames)
        self.progress = 0
        self.rate = durationFrames > 0 ? 1 / Double(durationFrames) : 1
        self.startAtFromFrame = startAtFromFrame
    }

    /// Progress this close to 1 is 1 (see `next`).
    static let completionTolerance = 1e-9

    var isStarted: Bool { startAtFromFrame == nil }
    var isComplete: Bool { progress >= 1 }

    /// Continue at the original speed from where the held crossfade is. The state machine's
    /// snapshot progress comes from the last report and may lag a block behind; rewinding to it
    /// would make the gains jump, so the engine's own progress wins.
    mutating func resumeAtOriginalRate() {
        rate = durationFrames > 0 ? 1 / Double(durationFrames) : 1
    }

    /// Finish what is left within `frames`.
    mutating func quickFinish(frames: Int64) {
        rate = frames > 0 ? max(0, 1 - progress) / Double(frames) : 1
        if frames <= 0 { progress = 1 }
    }

    /// Gains for the next frame; advances progress.
    @inline(__always)
    mutating func next() -> (outgoing: Float, incoming: Float) {
        progress = min(1, progress + rate)
        // Summing `rate` frame by frame drifts: 288 000 steps of 1/288 000 (a 6 s fade) end about
        // 3e-12 short of 1, so the fade would need one frame more than it lasts; when the outgoing
        // source ends exactly with the fade, that frame never comes and the fade is abandoned at
        // 99.99...% instead of completing. The tolerance is far below one frame's step (at least
        // 1/1 440 000 for a 30 s fade), so no gain moves audibly.
        if progress > 1 - Self.completionTolerance { progress = 1 }
        let g = curve.gains(at: progress)
        return (Float(g.outgoing), Float(g.incoming))
    }
}
