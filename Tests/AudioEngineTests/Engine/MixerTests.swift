import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// The mixer's output, frame by frame: crossfade gain laws, pause and resume inside a crossfade
/// (joins, strategy timing), fade-out length, de-click ramps.
@Suite("Mixer and render thread", .blocking)
struct MixerTests {
    static let rate = Double(AudioFormat.sampleRate)

    /// A on the left channel, B on the right: the output's channels are the two gains times 0.5.
    @Test(arguments: FadeCurve.allCases)
    func crossfadeFollowsTheCurve(_ curve: FadeCurve) throws {
        let h = EngineHarness()
        defer { h.shutdown() }
        _ = h.load(.a, left: 0.5, right: 0, seconds: 4)
        _ = h.load(.b, left: 0, right: 0.5, seconds: 4)
        h.acknowledgeLoads(2)
        h.engine.enqueue(.start(.a))
        h.engine.enqueue(.scheduleCrossfade(from: .a, to: .b, duration: 2, curve: curve, atPosition: 1.5))
        guard let done = h.run(until: { $0 == .crossfadeCompleted }) else {
            Issue.record("no crossfadeCompleted")
            return
        }
        #expect(abs(done.0.audioTime - 3.5) < 1e-9)
        h.engine.acknowledge(done.1)
        let left = h.sink.left
        let right = h.sink.right
        let start = Int(1.5 * Self.rate)
        let length = Int(2 * Self.rate)
        #expect(left.count >= start + length)
        // Before the crossfade: A alone (after the 10 ms start de-click).
        for n in stride(from: 480, to: start, by: 997) {
            #expect(abs(left[n] - 0.5) < 1e-6 && right[n] == 0)
        }
        var worst = 0.0
        for i in stride(from: 0, to: length, by: 17) {
            let g = curve.gains(at: Double(i + 1) / Double(length))
            worst = max(worst, abs(Double(left[start + i]) - 0.5 * g.outgoing), abs(Double(right[start + i]) - 0.5 * g.incoming))
        }
        #expect(worst < 1e-3, "\(curve): worst deviation \(worst)")
        #expect(abs(left[start + length - 1]) < 1e-6)
        #expect(abs(right[start + length - 1] - 0.5) < 1e-6)
    }

    /// 0.9 is safely among the last progress reports (every 100 ms) before a 2 s crossfade completes; a pause
    /// at 100 % is the state machine's case (resume goes straight to playing), tested there.
    @Test(arguments: [0.0, 0.3, 0.5, 0.8, 0.9])
    func pauseAndResumeInsideACrossfade(_ pauseAt: Double) throws {
        let h = EngineHarness()
        defer { h.shutdown() }
        _ = h.load(.a, left: 0.5, right: 0.2, seconds: 6)
        _ = h.load(.b, left: 0.2, right: 0.5, seconds: 6)
        h.acknowledgeLoads(2)
        h.engine.enqueue(.start(.a))
        h.engine.enqueue(.scheduleCrossfade(from: .a, to: .b, duration: 2, curve: .equalPower, atPosition: 1))
        // Pause at the first report at or past `pauseAt`.
        guard let at = h.run(until: { fact in
            switch fact {
            case .crossfadeStarted: pauseAt == 0
            case .crossfadeProgress(let p, _, _): Double(p) >= pauseAt
            default: false
            }
        }) else {
            Issue.record("never reached \(pauseAt)")
            return
        }
        let progress: Double
        if case .crossfadeProgress(let p, _, _) = at.0.fact { progress = Double(p) } else { progress = 0 }
        let pauseFrame = Int(at.0.audioTime * Self.rate)
        h.engine.enqueue(.pauseOutput)
        h.engine.acknowledge(at.1)
        // The engine ramps to silence and holds; give it a moment, then resume by the strategy.
        // Holding is writing nothing, which no report marks: only real time shows it.
        Thread.sleep(forTimeInterval: 0.2)
        let heldFrames = h.sink.left.count
        #expect(heldFrames == pauseFrame + Int(MasterGain.declickFrames), "held after \(heldFrames - pauseFrame) frames")
        let strategy = PlayerState.ResumeStrategy.forPause(at: Float(progress))
        switch strategy {
        case .continueFromProgress: h.engine.enqueue(.continueCrossfade(fromProgress: Float(progress)))
        case .quickFinish: h.engine.enqueue(.quickFinishCrossfade(duration: 1))
        }
        h.engine.enqueue(.resumeOutput)
        guard let done = h.run(until: { $0 == .crossfadeCompleted }) else {
            Issue.record("no completion")
            return
        }
        h.engine.acknowledge(done.1)
        let resumedAt = Double(heldFrames) / Self.rate
        // The held ramp-down (10 ms) itself advanced the crossfade a little.
        let expected = strategy == .quickFinish ? 1.0 : (1 - progress) * 2 - 480 / Self.rate
        #expect(abs((done.0.audioTime - resumedAt) - expected) < 0.03, "resume took \(done.0.audioTime - resumedAt) s, expected \(expected)")
        // No click at the joins: second differences stay below -60 dBFS.
        for channel in [h.sink.left, h.sink.right] {
            let worst = maxSecondDifference(channel, in: (pauseFrame - 2000)..<(heldFrames + 2000))
            #expect(dBFS(worst) < -60, "click of \(dBFS(worst)) dBFS at the pause/resume join")
        }
    }

    @Test func fadeOutIsExactAndEndsInSilence() throws {
        let h = EngineHarness()
        defer { h.shutdown() }
        _ = h.load(.a, left: 0.5, right: 0.5, seconds: 5)
        h.acknowledgeLoads(1)
        h.engine.enqueue(.start(.a))
        guard let at = h.run(until: { if case .position(_, let p, _, _) = $0 { p >= 1 } else { false } }) else {
            Issue.record("no position")
            return
        }
        let startFrame = Int(at.0.audioTime * Self.rate)
        h.engine.enqueue(.fadeOut(duration: 0.5))
        h.engine.acknowledge(at.1)
        guard let done = h.run(until: { $0 == .fadeOutCompleted }) else {
            Issue.record("no fadeOutCompleted")
            return
        }
        h.engine.acknowledge(done.1)
        // Exactly 0.5 s of audio from the command to the end of the fade.
        #expect(abs(done.0.audioTime - at.0.audioTime - 0.5) < 1e-9)
        let left = h.sink.left
        #expect(left.count == startFrame + 24_000)
        #expect(abs(left[startFrame] - 0.5) < 1e-3)
        #expect(abs(left[startFrame + 12_000] - 0.25) < 1e-2)
        #expect(abs(left[left.count - 1]) < 1e-6)
        #expect(dBFS(maxSecondDifference(left, in: (startFrame - 100)..<left.count)) < -60)
    }

    @Test func seekJumpsWithinTheSource() throws {
        let h = EngineHarness()
        defer { h.shutdown() }
        _ = h.load(.a, decoder: PositionDecoder(seconds: 10), seconds: 10)
        h.acknowledgeLoads(1)
        h.engine.enqueue(.start(.a))
        guard let at = h.run(until: { if case .position(_, let p, _, _) = $0 { p >= 1 } else { false } }) else {
            Issue.record("no position")
            return
        }
        let seekFrame = Int(at.0.audioTime * Self.rate)
        h.engine.enqueue(.seek(.a, 6))
        h.engine.acknowledge(at.1)
        guard let after = h.run(until: { if case .position = $0 { true } else { false } }) else {
            Issue.record("no position after the seek")
            return
        }
        h.engine.acknowledge(after.1)
        // The report says where the deck is, and the audio itself comes from 6 s on.
        if case .position(_, let p, _, _) = after.0.fact { #expect(abs(p - 6.1) < 1e-6, "position \(p) after the seek") }
        let left = h.sink.left
        #expect(abs(left[seekFrame - 1] - 0.01) < 1e-4, "before the seek: \(left[seekFrame - 1])")
        #expect(abs(left[seekFrame] - 0.06) < 1e-6, "first frame after the seek: \(left[seekFrame])")
        #expect(abs(left[seekFrame + 4_799] - Float(6 + 4_799 / Self.rate) / 100) < 1e-6)
    }

    @Test func pauseRampsRatherThanCuts() throws {
        let h = EngineHarness()
        defer { h.shutdown() }
        _ = h.load(.a, left: 0.8, right: 0.8, seconds: 5)
        h.acknowledgeLoads(1)
        h.engine.enqueue(.start(.a))
        guard let at = h.run(until: { if case .position(_, let p, _, _) = $0 { p >= 0.5 } else { false } }) else { return }
        let frame = Int(at.0.audioTime * Self.rate)
        h.engine.enqueue(.pauseOutput)
        h.engine.acknowledge(at.1)
        // Holding after the ramp is writing nothing, which no report marks: only real time shows it.
        Thread.sleep(forTimeInterval: 0.2)
        let left = h.sink.left
        #expect(left.count == frame + 480)
        // A 10 ms ramp: halfway down at 5 ms, silent at the end, never a jump.
        #expect(abs(left[frame + 240] - 0.4) < 0.02)
        #expect(abs(left[left.count - 1]) < 0.01)
        #expect(dBFS(maxSecondDifference(left, in: (frame - 10)..<left.count)) < -60)
        // The start of playback ramps in too.
        #expect(left[0] < 0.01 && abs(left[480] - 0.8) < 1e-6)
    }

    @Test func gaplessHandoverIsSampleExact() throws {
        let h = EngineHarness()
        defer { h.shutdown() }
        _ = h.load(.a, left: 0.5, right: 0, seconds: 2)
        _ = h.load(.b, left: 0, right: 0.5, seconds: 2)
        h.acknowledgeLoads(2)
        h.engine.enqueue(.start(.a))
        h.engine.enqueue(.scheduleCrossfade(from: .a, to: .b, duration: 0, curve: .equalPower, atPosition: 1.25))
        guard let done = h.run(until: { $0 == .crossfadeCompleted }) else { return }
        h.engine.acknowledge(done.1)
        _ = h.run { if case .position(_, let p, _, _) = $0 { p >= 0.5 } else { false } }
        let left = h.sink.left
        let right = h.sink.right
        let k = 60_000
        #expect(left[k - 1] == 0.5 && right[k - 1] == 0)
        #expect(left[k] == 0 && right[k] == 0.5)
    }
}
