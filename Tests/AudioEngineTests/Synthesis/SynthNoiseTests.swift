import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// The noise beds as the decoder plays them: their colour measured from their spectrum, their
/// level, no offset, wide stereo, and the same noise for the same seed from any position.
@Suite("Synthesised noise beds")
struct SynthNoiseTests {
    static let seconds = 4

    static func frames(_ sound: BuiltInSound, seconds: Int = seconds) throws -> [Float] {
        try SynthesizedDecoder(sound: sound).readFrames(seconds * AudioFormat.sampleRate)
    }

    /// Octave-band densities from 125 Hz to 8 kHz: a straight line at the colour's slope.
    @Test(arguments: [(BuiltInSound.pink, -3.0), (.brown, -6.0)])
    func theSpectrumFallsAtTheColoursSlope(sound: BuiltInSound, dBPerOctave: Double) throws {
        let frames = try Self.frames(sound)
        for channel in 0..<2 {
            let slope = Spectrum.slopePerOctave(SignalMetrics.channel(channel, of: frames), lowest: 125, octaves: 6)
            #expect(abs(slope - dBPerOctave) < 1.5, "\(sound) channel \(channel): \(slope) dB/octave")
        }
    }

    @Test(arguments: [BuiltInSound.pink, .brown])
    func itIsEndlessAtMinusTwentyDBFSWithNoOffset(sound: BuiltInSound) throws {
        let decoder = SynthesizedDecoder(sound: sound)
        #expect(decoder.duration == nil)
        let frames = try decoder.readFrames(Self.seconds * AudioFormat.sampleRate)
        #expect(frames.count == Self.seconds * AudioFormat.sampleRate * 2)
        #expect(!SignalMetrics.containsNaN(frames))
        for channel in 0..<2 {
            let samples = SignalMetrics.channel(channel, of: frames)
            let level = SignalMetrics.dBFS(SignalMetrics.rms(samples))
            #expect(abs(level - -20) < 1, "\(sound) channel \(channel) at \(level) dBFS")
            let mean = samples.reduce(0.0) { $0 + Double($1) } / Double(samples.count)
            #expect(SignalMetrics.dBFS(abs(mean)) < -60, "\(sound) channel \(channel) offset \(mean)")
            #expect(SignalMetrics.peak(samples) < 0.9)
        }
    }

    @Test(arguments: [BuiltInSound.pink, .brown])
    func leftAndRightAreUncorrelated(sound: BuiltInSound) throws {
        let frames = try Self.frames(sound, seconds: 10)
        let left = SignalMetrics.channel(0, of: frames).map(Double.init)
        let right = SignalMetrics.channel(1, of: frames).map(Double.init)
        let lr = zip(left, right).reduce(0) { $0 + $1.0 * $1.1 }
        let ll = left.reduce(0) { $0 + $1 * $1 }
        let rr = right.reduce(0) { $0 + $1 * $1 }
        let correlation = lr / (ll * rr).squareRoot()
        // A mono bed would be 1; two independent noises of 10 s stay near 0.
        #expect(abs(correlation) < 0.1, "\(sound): correlation \(correlation)")
    }

    @Test(arguments: [NoiseColour.pink, .brown])
    func theSameSeedGivesTheSameNoiseAndAnotherSeedOther(colour: NoiseColour) {
        func render(seed: UInt64) -> [Float] {
            var generator = NoiseGenerator(colour: colour, seed: seed)
            var out = [Float](repeating: 0, count: 20_000 * 2)
            out.withUnsafeMutableBufferPointer { generator.render(into: $0.baseAddress!, frames: 20_000) }
            return out
        }
        #expect(render(seed: 7) == render(seed: 7))
        let other = render(seed: 8)
        #expect(zip(render(seed: 7), other).filter { $0 == $1 }.count < 100)
    }

    @Test(arguments: [BuiltInSound.pink, .brown])
    func aSeekLandsOnTheNoisePlayingFromTheStartReachesThere(sound: BuiltInSound) throws {
        let whole = try SynthesizedDecoder(sound: sound).readFrames(3 * AudioFormat.sampleRate)
        let decoder = SynthesizedDecoder(sound: sound)
        _ = try decoder.readFrames(5_000)
        // Forward into the middle of a noise block, then back to the start.
        try decoder.seek(to: 1.7)
        let from = 81_600
        let after = try decoder.readFrames(48_000)
        let expected = Array(whole[(from * 2)..<((from + 48_000) * 2)])
        #expect(SignalMetrics.maxDifference(after[...], expected[...]) < 1e-6)
        try decoder.seek(to: 0)
        let start = try decoder.readFrames(10_000)
        #expect(SignalMetrics.maxDifference(start[...], whole[0..<20_000]) < 1e-6)
    }
}
