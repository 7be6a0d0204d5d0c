import Foundation
import PlayerCore
import Testing

@testable import AudioEngine

/// A deck whose loudness is not known (a live stream, a file not measured yet) is levelled from
/// what it sounds like: the mix itself gets louder, slowly, towards the target.
@Suite("Adaptive levelling in the mix", .blocking)
struct AdaptiveLevellingMixTests {
    /// Seeded white noise at a fixed RMS, endless enough for the test.
    final class NoiseDecoder: AudioDecoder, @unchecked Sendable {
        private var state: UInt64 = 42
        private let frames: Int
        private var position = 0
        let rms: Float
        var duration: Double? { Double(frames) / 48_000 }
        var skippedCorruptPackets: Int { 0 }

        init(seconds: Double, rms: Float) {
            frames = Int(seconds * 48_000)
            self.rms = rms
        }

        func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(PlaybackError) -> Int {
            let n = max(0, min(maxFrames, frames - position))
            for i in 0..<(n * 2) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                buffer[i] = (Float(state >> 40) / Float(1 << 24) * 2 - 1) * rms * Float(3.0.squareRoot())
            }
            position += n
            return n
        }

        func seek(to seconds: Double) throws(PlaybackError) { position = Int(seconds * 48_000) }
    }

    private func rmsDecibels(_ samples: ArraySlice<Float>) -> Double {
        10 * log10(samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count))
    }

    @Test func aQuietSourceIsRaisedInTheMix() throws {
        let h = EngineHarness()
        defer { h.shutdown() }
        _ = h.load(.a, decoder: NoiseDecoder(seconds: 10, rms: 0.01), seconds: 10)
        h.acknowledgeLoads(1)
        h.engine.enqueue(.setLoudness(LoudnessLevelling(mode: .track)))
        h.engine.enqueue(.start(.a))
        guard let end = h.run(until: { if case .position(_, let p, _, _) = $0 { p >= 8 } else { false } }) else {
            Issue.record("no position report at 8 s")
            return
        }
        h.engine.acknowledge(end.1)
        let left = h.sink.left
        // The first half second, before the first look at the meter (past the start's declick).
        let first = rmsDecibels(left[2_400..<24_000])
        let late = rmsDecibels(left[(7 * 48_000)..<(8 * 48_000)])
        // -40 dBFS noise is about -37 LUFS: the adaptive range (+12 dB) is all it may get.
        #expect(abs(first - -40) < 0.5, "the opening is as it came: \(first) dB")
        #expect(abs(late - first - 12) < 1, "raised by \(late - first) dB after 7 s")
    }
}
