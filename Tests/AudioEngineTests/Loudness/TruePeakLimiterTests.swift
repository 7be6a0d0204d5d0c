import Foundation
import Testing

@testable import AudioEngine

/// The limiter measured on signals built for it: transparent under the ceiling, and no sample or
/// reconstructed peak over it above.
/// `.blocking`: the tests compute for seconds (a fine interpolation in a debug build), which must
/// not hold the threads the other suites' actors run on.
@Suite("True-peak limiter", .blocking)
struct TruePeakLimiterTests {
    /// Interleaved stereo, the same on both channels.
    private func stereo(_ mono: [Float]) -> [Float] { mono.flatMap { [$0, $0] } }

    /// `frames` samples of a sine at `hertz`, 48 kHz (one typed closure: written inline in a test,
    /// the arithmetic takes the type checker most of a second).
    private static func sine(_ hertz: Double, amplitude: Double, frames: Int) -> [Float] {
        (0..<frames).map { (i: Int) -> Float in Float(amplitude * sin(2 * Double.pi * hertz * Double(i) / 48_000)) }
    }

    private func limit(_ input: [Float]) -> [Float] {
        let limiter = TruePeakLimiter(ceilingDecibels: -1)
        var samples = input
        samples.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, frames: $0.count / 2) }
        var tail = [Float](repeating: 0, count: TruePeakLimiter.latencyFrames * 2)
        tail.withUnsafeMutableBufferPointer { limiter.drain(into: $0.baseAddress!) }
        return samples + tail
    }

    /// The peak of a signal between its samples: 16x band-limited interpolation (a 64-tap
    /// windowed sinc), far finer than the limiter's own estimate.
    private func truePeak(_ interleaved: [Float]) -> Float {
        let left = stride(from: 0, to: interleaved.count, by: 2).map { Double(interleaved[$0]) }
        let weights = (1..<16).map { step in
            (-31...32).map { t in
                let u = Double(step) / 16 - Double(t)
                return sin(.pi * u) / (.pi * u) * 0.5 * (1 + cos(.pi * u / 32.5))
            }
        }
        var peak = 0.0
        for k in 32..<(left.count - 32) {
            peak = max(peak, abs(left[k]))
            for phase in weights {
                var value = 0.0
                for t in 0..<64 { value += left[k - 31 + t] * phase[t] }
                peak = max(peak, abs(value))
            }
        }
        return Float(peak)
    }

    @Test func underTheCeilingItOnlyDelays() {
        let input = stereo(Self.sine(1_000, amplitude: 0.5, frames: 9_600))
        let output = limit(input)
        let latency = TruePeakLimiter.latencyFrames * 2
        #expect(output.count == input.count + latency)
        #expect(output[0..<latency].allSatisfy { $0 == 0 })
        let largest = zip(output[latency...], input).map { abs($0 - $1) }.max() ?? 1
        #expect(largest < 1e-6, "changed by \(largest)")
    }

    /// A quarter-sample-rate tone sampled 45 degrees off its crests: every sample is 0.85, the
    /// wave between them reaches 1.2 (+1.6 dBTP). Sample-peak limiting would pass it untouched.
    @Test func interSamplePeaksAreHeldUnderTheCeiling() {
        let amplitude = 0.85 * 2.0.squareRoot()
        let input = stereo((0..<24_000).map { Float(amplitude * sin(.pi / 2 * Double($0) + .pi / 4)) })
        #expect(input.map(abs).max()! < 0.86, "the samples themselves are under full scale")
        #expect(truePeak(input) > 1.15, "the test signal overshoots between samples")
        let output = limit(input)
        let peak = truePeak(Array(output[(TruePeakLimiter.latencyFrames * 2)...]))
        #expect(20 * log10(peak) <= -1, "true peak \(20 * log10(peak)) dBTP")
    }

    /// A sudden loud burst in quiet music: caught by the look-ahead (never a sample over), and the
    /// gain comes back after it instead of staying down.
    @Test func aBurstIsCaughtAndTheGainRecovers() {
        var mono = Self.sine(440, amplitude: 0.2, frames: 48_000)
        let loud = Self.sine(440, amplitude: 1.8, frames: 24_480)
        for i in 24_000..<24_480 { mono[i] = loud[i] }
        let output = limit(stereo(mono))
        let ceiling = Float(pow(10, -1.0 / 20))
        #expect(output.map(abs).max()! <= ceiling, "a sample over the ceiling")
        // Half a second after the burst (six release time constants), the quiet tone is whole again.
        let latency = TruePeakLimiter.latencyFrames
        let lateOut = (47_000..<47_900).map { abs(output[($0 + latency) * 2]) }.max()!
        #expect(abs(lateOut - 0.2) < 0.002, "after the burst: \(lateOut)")
    }
}
