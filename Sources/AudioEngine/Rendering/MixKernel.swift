import Foundation
import Media
import PlayerCore

/// Every gain one block of the mix goes through, per frame: the decks' own (a session stage's
/// volume and its levelling gain), the crossfade between them, the master gain (pause and resume
/// de-clicks, fades) and the listener's volume. The ramps advance one frame at a time, so a fade
/// ends on an exact frame.
struct BlockGains {
    /// The outgoing (or only) deck: its fixed volume and its levelling gain.
    var volumeA: Float
    var levelA: MasterGain
    /// The incoming deck of a crossfade (silent without one).
    var volumeB: Float = 0
    var levelB = MasterGain()
    /// The crossfade under way while an incoming deck sounds.
    var crossfade: CrossfadeRamp?
    var master: MasterGain
    var listener: MasterGain

    /// Nothing ramps: one deck at a constant gain.
    var isSteady: Bool { crossfade == nil && !master.isRamping && !listener.isRamping && !levelA.isRamping }
}

/// The mixing kernel: the two decks' frames in, one block of the mix out, limited when the limiter
/// is in the chain and written to the sink. It owns the block's buffers, so nothing is allocated
/// while rendering.
struct MixKernel {
    /// Most frames in a block.
    let blockFrames: Int
    /// Frames pulled from the outgoing (or only) deck.
    var deckA: [Float]
    /// Frames pulled from the incoming deck of a crossfade.
    var deckB: [Float]
    /// The mixed block.
    private(set) var output: [Float]

    init(blockFrames: Int) {
        self.blockFrames = blockFrames
        output = [Float](repeating: 0, count: blockFrames * AudioFormat.channelCount)
        deckA = output
        deckB = output
    }

    /// Mixes `frames` frames into `output`: `framesA` of `deckA` and `framesB` of `deckB` (silence
    /// after them), through `gains`, whose ramps advance by `frames`. `layers` (a session's bed and
    /// bells, `frames` frames at their own levels) are added beside the decks, under the master
    /// gain and the listener's volume only.
    mutating func mix(frames: Int, framesA: Int, framesB: Int, gains: inout BlockGains, layers: UnsafePointer<Float>? = nil) {
        // The per-frame state lives in locals for the loop (no property access, no exclusivity
        // checks per sample) and is written back after it.
        let volA = gains.volumeA
        let volB = gains.volumeB
        var fade = gains.crossfade
        var gain = gains.master
        var listener = gains.listener
        var levelA = gains.levelA
        var levelB = gains.levelB
        let steady = gains.isSteady && layers == nil
        let steadyGain = Float(gain.value * listener.value * levelA.value) * volA
        output.withUnsafeMutableBufferPointer { outBuffer in
            deckA.withUnsafeBufferPointer { aBuffer in
                deckB.withUnsafeBufferPointer { bBuffer in
                    let out = outBuffer.baseAddress!
                    let a = aBuffer.baseAddress!
                    let b = bBuffer.baseAddress!
                    if steady {
                        // One deck at a constant gain: a plain scaled copy.
                        for j in 0..<(framesA * 2) { out[j] = a[j] * steadyGain }
                        for j in (framesA * 2)..<(frames * 2) { out[j] = 0 }
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
                        let aL: Float = i < framesA ? a[j] : 0
                        let aR: Float = i < framesA ? a[j &+ 1] : 0
                        let bL: Float = i < framesB ? b[j] : 0
                        let bR: Float = i < framesB ? b[j &+ 1] : 0
                        let lL: Float = layers?[j] ?? 0
                        let lR: Float = layers?[j &+ 1] ?? 0
                        out[j] = (aL * gA + bL * gB + lL) * gm
                        out[j &+ 1] = (aR * gA + bR * gB + lR) * gm
                    }
                }
            }
        }
        gains.crossfade = fade
        gains.master = gain
        gains.listener = listener
        gains.levelA = levelA
        gains.levelB = levelB
    }

    /// Limits the block in place (the limiter's output is 1.5 ms behind its input).
    mutating func limit(frames: Int, with limiter: TruePeakLimiter?) {
        guard let limiter else { return }
        output.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, frames: frames) }
    }

    /// Writes the block's first `frames` frames to `sink`.
    func write(frames: Int, to sink: any AudioSink) throws(PlaybackError) {
        try output.withUnsafeBufferPointer { (samples) throws(PlaybackError) in try sink.write(samples.baseAddress!, frames: frames) }
    }

    /// Writes what `limiter` still holds (the last 1.5 ms of the mix) at the end of playback;
    /// returns the frames written.
    static func writeTail(of limiter: TruePeakLimiter, to sink: any AudioSink) throws(PlaybackError) -> Int {
        var tail = [Float](repeating: 0, count: TruePeakLimiter.latencyFrames * AudioFormat.channelCount)
        tail.withUnsafeMutableBufferPointer { limiter.drain(into: $0.baseAddress!) }
        try tail.withUnsafeBufferPointer { (samples) throws(PlaybackError) in
            try sink.write(samples.baseAddress!, frames: TruePeakLimiter.latencyFrames)
        }
        return TruePeakLimiter.latencyFrames
    }
}
