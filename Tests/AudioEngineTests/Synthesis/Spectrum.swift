import Foundation
import Media
import PlayerCore

@testable import AudioEngine

/// Spectral measurements of synthesised sound: a power spectrum by FFT, averaged over
/// overlapping windows (Welch's method), and the levels of octave bands read from it.
enum Spectrum {
    /// Power per bin of `samples` (mono), averaged over Hann windows of `size` (a power of two)
    /// overlapping by half. Bin k is k · rate / size hertz.
    static func power(_ samples: [Float], size: Int) -> [Double] {
        precondition(size > 0 && size & (size - 1) == 0 && samples.count >= size)
        let window = (0..<size).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size)) }
        var sum = [Double](repeating: 0, count: size / 2 + 1)
        var windows = 0
        var start = 0
        while start + size <= samples.count {
            var re = (0..<size).map { Double(samples[start + $0]) * window[$0] }
            var im = [Double](repeating: 0, count: size)
            fft(&re, &im)
            for k in 0...(size / 2) { sum[k] += re[k] * re[k] + im[k] * im[k] }
            windows += 1
            start += size / 2
        }
        return sum.map { $0 / Double(windows) }
    }

    /// The frequency of bin `k`.
    static func frequency(ofBin k: Int, size: Int) -> Double {
        Double(k) * Double(AudioFormat.sampleRate) / Double(size)
    }

    /// Mean power per bin (a density: per hertz, up to a constant) in [low, high) hertz, in dB.
    static func densityDB(_ power: [Double], size: Int, from low: Double, to high: Double) -> Double {
        let bins = power.indices.filter {
            let f = frequency(ofBin: $0, size: size)
            return f >= low && f < high
        }
        let mean = bins.reduce(0) { $0 + power[$1] } / Double(bins.count)
        return 10 * log10(mean)
    }

    /// The slope, dB per octave, of the density over `octaves` consecutive octaves from `lowest`
    /// hertz: the least-squares line through each octave's mean density.
    static func slopePerOctave(_ samples: [Float], lowest: Double, octaves: Int, size: Int = 8_192) -> Double {
        let p = power(samples, size: size)
        let levels = (0..<octaves).map { (k: Int) -> Double in
            let from: Double = lowest * pow(2, Double(k))
            return densityDB(p, size: size, from: from, to: from * 2)
        }
        let n = Double(octaves)
        let meanX = (n - 1) / 2
        let meanY = levels.reduce(0, +) / n
        var covariance = 0.0
        var variance = 0.0
        for (k, level) in levels.enumerated() {
            covariance += (Double(k) - meanX) * (level - meanY)
            variance += (Double(k) - meanX) * (Double(k) - meanX)
        }
        return covariance / variance
    }

    /// The bin of highest power within [low, high] hertz.
    static func peakBin(_ power: [Double], size: Int, from low: Double, to high: Double) -> Int {
        let first = Int((low * Double(size) / Double(AudioFormat.sampleRate)).rounded(.up))
        let last = min(power.count - 1, Int(high * Double(size) / Double(AudioFormat.sampleRate)))
        return (first...last).max { power[$0] < power[$1] }!
    }

    /// In-place iterative radix-2 FFT (Cooley-Tukey); the count must be a power of two.
    static func fft(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                re.swapAt(i, j)
                im.swapAt(i, j)
            }
        }
        var length = 2
        while length <= n {
            let angle = -2 * Double.pi / Double(length)
            for k in 0..<(length / 2) {
                let wr = cos(angle * Double(k))
                let wi = sin(angle * Double(k))
                for start in stride(from: 0, to: n, by: length) {
                    let a = start + k
                    let b = a + length / 2
                    let tr = re[b] * wr - im[b] * wi
                    let ti = re[b] * wi + im[b] * wr
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
            }
            length <<= 1
        }
    }
}

/// Reading synthesised sound in tests.
extension AudioDecoder {
    /// Up to `frames` interleaved frames, read in odd-sized chunks so reads straddle every
    /// internal boundary (blocks, repeats); fewer if the sound ends first.
    func readFrames(_ frames: Int, chunk: Int = 3_001) throws -> [Float] {
        var out: [Float] = []
        out.reserveCapacity(frames * 2)
        var buffer = [Float](repeating: 0, count: chunk * 2)
        while out.count < frames * 2 {
            let want = min(chunk, frames - out.count / 2)
            let n = try buffer.withUnsafeMutableBufferPointer { b throws(PlaybackError) in
                try read(into: b.baseAddress!, maxFrames: want)
            }
            if n == 0 { break }
            out += buffer[0..<(n * 2)]
        }
        return out
    }
}
