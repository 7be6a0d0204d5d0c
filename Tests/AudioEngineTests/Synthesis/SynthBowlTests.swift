import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// The singing bowl as the decoder plays it: struck at frame 0, ringing in inharmonic partials
/// that decay, ending in exact silence.
@Suite("Synthesised singing bowl")
struct SynthBowlTests {
    /// Every frame of `tonearm:bowl`, left channel, read as the engine reads it.
    static func bowl() throws -> (left: [Float], right: [Float]) {
        let decoder = SynthesizedDecoder(sound: .bowl)
        let frames = try decoder.readFrames(20 * AudioFormat.sampleRate)
        return (SignalMetrics.channel(0, of: frames), SignalMetrics.channel(1, of: frames))
    }

    @Test func itIsTwelveSecondsOfStereoWhoseChannelsAreTheSameBell() throws {
        let decoder = SynthesizedDecoder(sound: .bowl)
        #expect(decoder.duration == 12)
        let bowl = try Self.bowl()
        #expect(bowl.left.count == 576_000)
        #expect(bowl.left == bowl.right)
        #expect(!SignalMetrics.containsNaN(bowl.left))
    }

    @Test func theStrikeIsAtFrameZeroAndPeaksAtMinusThreeDBFS() throws {
        let left = try Self.bowl().left
        // -40 dBFS: the first audible frame is within the first millisecond.
        let onset = left.firstIndex { abs($0) > 0.01 }
        #expect(onset.map { $0 < 48 } == true, "onset at frame \(String(describing: onset))")
        let peak = SignalMetrics.dBFS(Double(SignalMetrics.peak(left)))
        #expect(abs(peak - -3) < 0.05, "peak \(peak) dBFS")
        // The loudest moment is the strike's first instants (where the partials, all starting at
        // their crests, next fall into step), not a later swell.
        let loudest = left.indices.max { abs(left[$0]) < abs(left[$1]) }!
        #expect(loudest < 4_800, "loudest frame \(loudest)")
    }

    @Test func itDecaysSecondBySecond() throws {
        let left = try Self.bowl().left
        let rate = AudioFormat.sampleRate
        let levels = (0..<12).map { SignalMetrics.dBFS(SignalMetrics.rms(left[($0 * rate)..<(($0 + 1) * rate)])) }
        for (earlier, later) in zip(levels, levels.dropFirst()) {
            #expect(later < earlier - 1, "per-second RMS: \(levels.map { Int($0.rounded()) })")
        }
        // Rung out: the last full second before the release is far below the strike.
        #expect(levels[10] < levels[0] - 50)
    }

    @Test func itEndsAtZeroWithoutAStep() throws {
        let left = try Self.bowl().left
        #expect(left.last == 0)
        func largestStep(_ range: Range<Int>) -> Float {
            range.dropFirst().reduce(0) { max($0, abs(left[$1] - left[$1 - 1])) }
        }
        // The closing steps are no larger than the ring's own just before the release, and the
        // step from the last frame to the silence after it is nothing.
        let releaseStart = left.count - BowlBell.releaseFrames
        let before = largestStep((releaseStart - 4_800)..<releaseStart)
        let closing = largestStep(releaseStart..<left.count)
        #expect(before > 0)
        #expect(closing <= before, "closing steps \(closing), the ring's own \(before)")
        #expect(abs(left[left.count - 2]) < before)
    }

    @Test func itsPartialsAreWhereTheyArePutAndNotHarmonics() throws {
        let left = try Self.bowl().left
        // 65 536 frames (1.4 s, 0.73 Hz a bin) from the strike, while every partial still rings.
        let size = 65_536
        let power = Spectrum.power(Array(left[0..<size]), size: size)
        let f1 = BowlBell.fundamental
        var measured: [Double] = []
        // The spectrum between the partials: the median bin up to 4 kHz.
        let below4k = power[0..<Int(4_000 * Double(size) / 48_000)].sorted()
        let floor = below4k[below4k.count / 2]
        for partial in BowlBell.partials {
            let nominal = f1 * partial.ratio
            let bin = Spectrum.peakBin(power, size: size, from: nominal * 0.97, to: nominal * 1.03)
            let frequency = Spectrum.frequency(ofBin: bin, size: size)
            #expect(abs(frequency - nominal) < 1.5, "partial at \(nominal) Hz peaks at \(frequency) Hz")
            measured.append(frequency)
            // A real peak: far above the spectrum between the partials.
            #expect(10 * log10(power[bin] / floor) > 30, "partial at \(nominal) Hz stands only \(10 * log10(power[bin] / floor)) dB out")
        }
        // Inharmonic: every upper partial is well away from the harmonic nearest to it, and that
        // harmonic holds far less energy than the partial.
        for frequency in measured.dropFirst() {
            let ratio = frequency / measured[0]
            let harmonic = ratio.rounded() * measured[0]
            #expect(abs(ratio - ratio.rounded()) > 0.1, "a partial at \(ratio) × the fundamental")
            let atHarmonic = Spectrum.peakBin(power, size: size, from: harmonic - 2, to: harmonic + 2)
            let atPartial = Spectrum.peakBin(power, size: size, from: frequency - 1, to: frequency + 1)
            #expect(10 * log10(power[atPartial] / power[atHarmonic]) > 20, "harmonic \(harmonic) Hz is close to partial \(frequency) Hz")
        }
    }

    @Test func aSeekPlaysTheBellFromThere() throws {
        let whole = try SynthesizedDecoder(sound: .bowl).readFrames(576_000)
        let decoder = SynthesizedDecoder(sound: .bowl)
        _ = try decoder.readFrames(10_000)
        try decoder.seek(to: 5.5)
        let from = 264_000
        let rest = try decoder.readFrames(600_000)
        #expect(rest.count == whole.count - from * 2)
        #expect(rest == Array(whole[(from * 2)...]))
        // Back to the strike, and past the end (which reads as the end).
        try decoder.seek(to: 0)
        #expect(try decoder.readFrames(4_800) == Array(whole[0..<9_600]))
        try decoder.seek(to: 60)
        #expect(try decoder.readFrames(10).isEmpty)
    }
}
