import Foundation

/// Level and frequency measures on decoded audio (interleaved or single-channel `[Float]`).
package enum SignalMetrics {
    /// Root mean square of `samples` (0 for none).
    package static func rms(_ samples: ArraySlice<Float>) -> Double {
        guard !samples.isEmpty else { return 0 }
        var sum = 0.0
        for sample in samples { sum += Double(sample) * Double(sample) }
        return (sum / Double(samples.count)).squareRoot()
    }

    package static func rms(_ samples: [Float]) -> Double { rms(samples[...]) }

    /// Largest absolute sample.
    package static func peak(_ samples: [Float]) -> Float {
        samples.reduce(0) { max($0, abs($1)) }
    }

    /// Level relative to full scale (1.0); -infinity for silence.
    package static func dBFS(_ level: Double) -> Double {
        level > 0 ? 20 * log10(level) : -.infinity
    }

    /// The difference in decibels between two levels.
    package static func decibels(_ level: Double, relativeTo reference: Double) -> Double {
        dBFS(level) - dBFS(reference)
    }

    package static func containsNaN(_ samples: [Float]) -> Bool {
        samples.contains { !$0.isFinite }
    }

    /// One channel of interleaved audio.
    package static func channel(_ index: Int, of interleaved: [Float], channels: Int = 2) -> [Float] {
        stride(from: index, to: interleaved.count, by: channels).map { interleaved[$0] }
    }

    /// Sign changes per second of a single-channel signal: twice the frequency of a pure tone.
    package static func zeroCrossingsPerSecond(_ samples: [Float], sampleRate: Int) -> Double {
        guard samples.count > 1 else { return 0 }
        var crossings = 0
        var previous = samples[0]
        for sample in samples.dropFirst() {
            if (previous < 0 && sample >= 0) || (previous >= 0 && sample < 0) { crossings += 1 }
            previous = sample
        }
        return Double(crossings) / (Double(samples.count) / Double(sampleRate))
    }

    /// The middle of a signal without `fraction` at each end, where codecs' edges (priming,
    /// padding, fades of the resampler) cannot distort a level measurement.
    package static func middle(_ samples: [Float], trimming fraction: Double = 0.1, channels: Int = 2) -> [Float] {
        let frames = samples.count / channels
        let trim = Int(Double(frames) * fraction)
        guard frames > 2 * trim else { return samples }
        return Array(samples[(trim * channels)..<((frames - trim) * channels)])
    }

    /// Largest absolute difference between two equally long stretches.
    package static func maxDifference(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Float {
        zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }
}
