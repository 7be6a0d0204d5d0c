import Foundation
import Media
import PlayerCore
import Testing

@testable import AudioEngine

/// One block of the mix, frame by frame, without the render thread: every gain applied where it
/// belongs, the ramps advanced by the block, silence after what a deck delivered.
@Suite("The mixing kernel")
struct MixKernelTests {
    /// A kernel whose deck A holds `a` on both channels and deck B holds `b`.
    private static func kernel(frames: Int, a: Float, b: Float) -> MixKernel {
        var kernel = MixKernel(blockFrames: frames)
        kernel.deckA = [Float](repeating: a, count: frames * 2)
        kernel.deckB = [Float](repeating: b, count: frames * 2)
        return kernel
    }

    private static func left(_ kernel: MixKernel, _ frame: Int) -> Float { kernel.output[2 * frame] }

    @Test func oneDeckAtConstantGainsIsScaledAndSilentAfterWhatItDelivered() {
        var kernel = Self.kernel(frames: 64, a: 0.8, b: 0)
        var listener = MasterGain()
        listener.set(0.5)
        var level = MasterGain()
        level.set(0.5)
        var gains = BlockGains(volumeA: 0.5, levelA: level, master: MasterGain(), listener: listener)
        #expect(gains.isSteady)
        kernel.mix(frames: 64, framesA: 40, framesB: 0, gains: &gains)
        #expect(kernel.output[0..<80].allSatisfy { abs($0 - 0.8 * 0.5 * 0.5 * 0.5) < 1e-7 })
        #expect(kernel.output[80..<128].allSatisfy { $0 == 0 }, "an underrun's shortfall is silence")
    }

    @Test(arguments: FadeCurve.allCases)
    func aCrossfadeBlockFollowsTheCurveFrameByFrame(_ curve: FadeCurve) {
        var kernel = MixKernel(blockFrames: 100)
        // A on the left channel, B on the right: each channel shows one deck's gain.
        for i in 0..<100 {
            kernel.deckA[2 * i] = 1
            kernel.deckB[2 * i + 1] = 1
        }
        let fade = CrossfadeRamp(from: .a, to: .b, durationFrames: 200, curve: curve, startAtFromFrame: nil)
        var gains = BlockGains(volumeA: 1, levelA: MasterGain(), volumeB: 0.5, crossfade: fade, master: MasterGain(), listener: MasterGain())
        kernel.mix(frames: 100, framesA: 100, framesB: 100, gains: &gains)
        for i in 0..<100 {
            let g = curve.gains(at: Double(i + 1) / 200)
            #expect(abs(Double(kernel.output[2 * i]) - g.outgoing) < 1e-6)
            #expect(abs(Double(kernel.output[2 * i + 1]) - 0.5 * g.incoming) < 1e-6, "the incoming deck's own volume applies")
        }
        #expect(abs((gains.crossfade?.progress ?? 0) - 0.5) < 1e-12, "the crossfade advanced by the block")
    }

    @Test func theMasterRampAppliesOnTopOfTheDeckAndEndsWithTheBlock() {
        var kernel = Self.kernel(frames: Int(MasterGain.declickFrames), a: 0.6, b: 0)
        var master = MasterGain()
        master.set(0)
        master.ramp(to: 1, frames: MasterGain.declickFrames, shape: .cosine, completion: .none)
        var gains = BlockGains(volumeA: 1, levelA: MasterGain(), master: master, listener: MasterGain())
        #expect(!gains.isSteady)
        kernel.mix(frames: Int(MasterGain.declickFrames), framesA: Int(MasterGain.declickFrames), framesB: 0, gains: &gains)
        var expected = master
        for i in 0..<Int(MasterGain.declickFrames) {
            let gain = expected.next()
            #expect(abs(Self.left(kernel, i) - 0.6 * gain) < 1e-7)
        }
        #expect(Self.left(kernel, 0) < 0.001, "the first frame is near silence")
        #expect(!gains.master.isRamping && gains.master.value == 1)
    }
}
