import Foundation
import Media

/// Keeps the mix under a true-peak ceiling (-1 dBTP) however far levelling or the volume boosts.
///
/// Written by hand because no library Tonearm links offers it as a streaming call: FFmpeg's
/// `alimiter` needs libavfilter and a filter graph and limits sample peaks only, libebur128
/// measures true peaks but does not limit. The design is the usual look-ahead limiter:
///
/// - Peaks are estimated between samples too (a 16-tap windowed-sinc interpolator at 8x), since a
///   DAC's reconstruction overshoots the samples; a shorter one at 4x let heavily limited noise
///   through 0.5 dB over the ceiling.
/// - The gain each sample needs is the ceiling over the peaks around it; the applied gain is the
///   minimum of those needs over the look-ahead, averaged over the look-ahead: the average of
///   values that are all at most a sample's need is at most that need, so no output sample or
///   reconstructed peak passes the ceiling, and the gain reaches a peak as a smooth ramp.
/// - After a peak the gain recovers exponentially (`releaseSeconds`), slowly enough not to distort
///   low notes.
///
/// Audio comes out `latencyFrames` late; `drain` gives back what is still inside at the end.
/// Used by the render thread only.
final class TruePeakLimiter {
    /// Ceiling, amplitude. The target is -1 dBTP; the limiter aims 0.5 dB lower for the
    /// interpolator's own error and the gain's slope across one sample interval (heavily limited
    /// noise measured 0.2 dB over the aim by FFmpeg's meter).
    let ceiling: Float

    /// Frames of look-ahead: 1.33 ms, enough for a click-free attack (1.5 ms latency in all).
    static let lookAheadFrames = 64
    /// Taps of the interpolator: samples k-7...k+8 for the points between k and k+1.
    private static let taps = 16
    /// Frames the interpolator needs after a sample to estimate the peaks around it.
    static let interpolationFrames = taps / 2
    static var latencyFrames: Int { lookAheadFrames + interpolationFrames }
    static let releaseSeconds = 0.08

    private static let channels = AudioFormat.channelCount
    private static let phases = 7

    // The buffers are raw memory: this runs for every frame of the mix, and even a debug build
    // must keep up with real time.

    /// Interpolation weights at 1/8 ... 7/8 between sample k and k+1, for samples k-7...k+8,
    /// phase after phase.
    private let weights: UnsafeMutablePointer<Float>
    /// Raw input, interleaved, written twice (at `slot` and `slot + historyFrames`) so the frames
    /// before the newest are always one contiguous run.
    private let history: UnsafeMutablePointer<Float>
    private let historyFrames: Int
    /// Frames pushed.
    private var written = 0
    /// The gain each sample needs, by frame (ring of lookAheadFrames + 1).
    private let needs: UnsafeMutablePointer<Float>
    /// Peak of the interval before the newest complete one (shared by two samples' needs).
    private var previousIntervalPeak: Float = 0
    /// Released minimum gains, by frame (ring), and their running sum for the average.
    private let released: UnsafeMutablePointer<Float>
    private var releasedSum: Double
    private var releaseState: Float = 1
    private let releaseStep: Float
    private static let ringCount = lookAheadFrames + 1

    init(ceilingDecibels: Double) {
        ceiling = Float(pow(10, (ceilingDecibels - 0.5) / 20))
        historyFrames = Self.latencyFrames + Self.taps
        history = .allocate(capacity: 2 * historyFrames * Self.channels)
        history.initialize(repeating: 0, count: 2 * historyFrames * Self.channels)
        weights = .allocate(capacity: Self.phases * Self.taps)
        let half = Double(Self.taps / 2)
        for step in 1...Self.phases {
            for (index, t) in (-(Self.taps / 2 - 1)...(Self.taps / 2)).enumerated() {
                let u = Double(step) / 8 - Double(t)
                let sinc = sin(.pi * u) / (.pi * u)
                let window = 0.5 * (1 + cos(.pi * u / (half + 0.5)))  // Hann, wide enough to keep every tap
                (weights + (step - 1) * Self.taps + index).initialize(to: Float(sinc * window))
            }
        }
        needs = .allocate(capacity: Self.ringCount)
        needs.initialize(repeating: 1, count: Self.ringCount)
        released = .allocate(capacity: Self.ringCount)
        released.initialize(repeating: 1, count: Self.ringCount)
        releasedSum = Double(Self.ringCount)
        releaseStep = Float(1 - exp(-1 / (Self.releaseSeconds * Double(AudioFormat.sampleRate))))
    }

    deinit {
        history.deallocate()
        weights.deallocate()
        needs.deallocate()
        released.deallocate()
    }

    /// Limits `frames` frames in place; what comes out is `latencyFrames` behind what went in.
    func process(_ samples: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<frames {
            let base = i * Self.channels
            let out = push(left: samples[base], right: samples[base + 1])
            samples[base] = out.left
            samples[base + 1] = out.right
        }
    }

    /// The audio still inside, limited, with silence pushed behind it; `latencyFrames` frames.
    func drain(into samples: UnsafeMutablePointer<Float>) {
        for i in 0..<Self.latencyFrames {
            let out = push(left: 0, right: 0)
            samples[i * Self.channels] = out.left
            samples[i * Self.channels + 1] = out.right
        }
    }

    @inline(__always)
    private func push(left: Float, right: Float) -> (left: Float, right: Float) {
        let n = written
        written += 1
        let slot = n % historyFrames
        history[slot * Self.channels] = left
        history[slot * Self.channels + 1] = right
        history[(slot + historyFrames) * Self.channels] = left
        history[(slot + historyFrames) * Self.channels + 1] = right
        // `newest` is frame n; frame n - k is `newest - k * channels`.
        let newest = history + (slot + historyFrames) * Self.channels

        // The newest interval whose interpolation taps are all in: (j, j+1) with j = n - taps/2;
        // its taps are frames j-7 ... j+8 = n-15 ... n.
        let firstTap = newest - (Self.taps - 1) * Self.channels
        var intervalPeak: Float = 0
        for channel in 0..<Self.channels {
            for phase in 0..<Self.phases {
                let w = weights + phase * Self.taps
                var value: Float = 0
                for t in 0..<Self.taps { value += w[t] * firstTap[t * Self.channels + channel] }
                intervalPeak = max(intervalPeak, abs(value))
            }
        }
        // Sample j needs to keep itself and both intervals around it under the ceiling.
        let sampleJ = newest - Self.interpolationFrames * Self.channels
        let samplePeak = max(abs(sampleJ[0]), abs(sampleJ[1]))
        let peak = max(samplePeak, intervalPeak, previousIntervalPeak)
        previousIntervalPeak = intervalPeak
        needs[n % Self.ringCount] = peak > ceiling ? ceiling / peak : 1

        // Minimum need over the look-ahead (sample j back to j - L), released slowly upwards.
        var minimum: Float = 1
        for index in 0..<Self.ringCount { minimum = min(minimum, needs[index]) }
        releaseState = min(minimum, releaseState + (1 - releaseState) * releaseStep)
        let ringSlot = n % Self.ringCount
        releasedSum += Double(releaseState) - Double(released[ringSlot])
        released[ringSlot] = releaseState
        let gain = Float(releasedSum / Double(Self.ringCount))

        // Out goes sample j - L, under the average of the last L + 1 released minimums, each of
        // which covered it (silence until the first sample has gone through).
        let out = newest - Self.latencyFrames * Self.channels
        return (out[0] * gain, out[1] * gain)
    }
}
