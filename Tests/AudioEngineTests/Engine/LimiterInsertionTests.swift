import Foundation
import PlayerCore
import Testing

@testable import AudioEngine

/// The limiter joins the chain when levelling is turned on mid-track: through a 10 ms dip of the
/// master gain, never a click, and the sound comes back where it was.
@Suite("The limiter joining the mix", .blocking)
struct LimiterInsertionTests {
    @Test func turningLevellingOnMidTrackDipsWithoutAClick() throws {
        let h = EngineHarness()
        defer { h.shutdown() }
        guard let frame = h.changeMidTone(at: 0.5, send: [.setLoudness(LoudnessLevelling(mode: .track))], until: 0.8) else { return }
        let left = h.sink.left
        #expect(abs(left[frame - 1] - 0.8) < 1e-6)
        // Down to silence within 10 ms, through the limiter's empty delay line, back up in 10 ms.
        let dip = left[frame..<(frame + 2_400)]
        #expect(dip.min()! < 1e-6, "the dip reaches silence")
        let back = frame + Int(MasterGain.declickFrames) * 2 + TruePeakLimiter.latencyFrames
        #expect(left[back...].prefix(4_800).allSatisfy { abs($0 - 0.8) < 1e-5 }, "back at the level it had")
        #expect(dBFS(maxSecondDifference(left, in: (frame - 10)..<(back + 10))) < -60, "no click")
    }
}
