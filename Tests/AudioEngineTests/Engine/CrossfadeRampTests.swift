import PlayerCore
import Testing

@testable import AudioEngine

/// A crossfade of n frames is complete on exactly its n-th frame, whatever n: the frame-by-frame
/// progress must not fall a rounding error short and need one frame more.
@Suite("Crossfade ramp")
struct CrossfadeRampTests {
    @Test(arguments: [49, 4_800, 288_000, 1_440_000])
    func completesOnItsLastFrame(frames: Int) {
        var ramp = CrossfadeRamp(from: .a, to: .b, durationFrames: Int64(frames), curve: .equalPower, startAtFromFrame: nil)
        for _ in 0..<(frames - 1) { _ = ramp.next() }
        #expect(!ramp.isComplete)
        let last = ramp.next()
        #expect(ramp.isComplete && ramp.progress == 1)
        #expect(last.incoming == 1 && last.outgoing < 1e-6)
    }
}
