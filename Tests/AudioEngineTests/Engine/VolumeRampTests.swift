import Foundation
import PlayerCore
import Testing

@testable import AudioEngine

/// A volume change lands on an exact frame of the mix and glides over 50 ms, with no step a
/// listener would hear as a click.
@Suite("Volume ramps in the mixer", .blocking)
struct VolumeRampTests {
    @Test func aChangeGlidesToTheNewLevelWithoutAClick() throws {
        let h = EngineHarness()
        defer { h.shutdown() }
        // Rendered on past the ramp.
        guard let frame = h.changeMidTone(at: 0.5, send: [.setVolume(0.25)], until: 0.7) else { return }
        let left = h.sink.left
        let ramp = Int(MasterGain.volumeRampFrames)
        #expect(abs(left[frame - 1] - 0.8) < 1e-6, "before: \(left[frame - 1])")
        // A raised-cosine glide: halfway at 25 ms, at the new level after 50 ms and from then on.
        #expect(abs(left[frame + ramp / 2 - 1] - 0.5) < 0.01, "halfway: \(left[frame + ramp / 2 - 1])")
        #expect(abs(left[frame + ramp] - 0.2) < 1e-6, "after: \(left[frame + ramp])")
        #expect(left[(frame + ramp)...].prefix(4_800).allSatisfy { abs($0 - 0.2) < 1e-6 })
        #expect(dBFS(maxSecondDifference(left, in: (frame - 10)..<(frame + ramp + 10))) < -60)
    }

    /// The volume multiplies the pause ramp rather than replacing it: resuming comes back to the
    /// listener's volume, not to full.
    @Test func pauseAndResumeKeepTheVolume() throws {
        let h = EngineHarness()
        defer { h.shutdown() }
        _ = h.load(.a, left: 0.8, right: 0.8, seconds: 5)
        h.acknowledgeLoads(1)
        h.engine.enqueue(.setVolume(0.5))
        h.engine.enqueue(.start(.a))
        guard let at = h.run(until: { if case .position(_, let p, _, _) = $0 { p >= 0.5 } else { false } }) else {
            Issue.record("no position report")
            return
        }
        h.engine.enqueue(.pauseOutput)
        h.engine.enqueue(.resumeOutput)
        h.engine.acknowledge(at.1)
        guard let later = h.run(until: { if case .position(_, let p, _, _) = $0 { p >= 0.8 } else { false } }) else {
            Issue.record("no position report after resuming")
            return
        }
        h.engine.acknowledge(later.1)
        let left = h.sink.left
        #expect(abs(left[Int(at.0.audioTime * 48_000) - 1] - 0.4) < 1e-6)
        #expect(abs(left[left.count - 1] - 0.4) < 1e-6, "after resuming: \(left[left.count - 1])")
    }
}
