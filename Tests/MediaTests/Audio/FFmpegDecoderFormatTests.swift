import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

/// Every supported format decodes to 48 kHz stereo Float32 with the right length, level and pitch.
@Suite("FFmpegDecoder formats", .blocking)
struct FFmpegDecoderFormatTests {
    struct FormatCase: Sendable, CustomStringConvertible {
        let codec: AudioFixtures.Codec
        let sampleRate: Int
        var layout = "stereo"

        var description: String { "\(codec) \(sampleRate) Hz \(layout)" }
    }

    static let cases: [FormatCase] = [
        .init(codec: .mp3, sampleRate: 44_100), .init(codec: .mp3, sampleRate: 48_000),
        .init(codec: .aac, sampleRate: 44_100), .init(codec: .aac, sampleRate: 48_000),
        .init(codec: .vorbis, sampleRate: 44_100), .init(codec: .vorbis, sampleRate: 48_000),
        .init(codec: .opus, sampleRate: 48_000),  // Opus always runs at 48 kHz
        .init(codec: .flac, sampleRate: 44_100), .init(codec: .flac, sampleRate: 48_000),
        .init(codec: .wav, sampleRate: 44_100), .init(codec: .wav, sampleRate: 48_000),
        .init(codec: .mp3, sampleRate: 22_050, layout: "mono"),
        .init(codec: .flac, sampleRate: 22_050, layout: "mono"),
    ]

    static let expectedRMS = 0.5 / 2.0.squareRoot()

    @Test("2 s of a 440 Hz sine decodes to 2 s at 48 kHz with its level", arguments: cases)
    func decodesSine(_ format: FormatCase) throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(format.codec, sampleRate: format.sampleRate, layout: format.layout)
        let decoder = try FFmpegDecoder(url: file)
        let samples = try decodeAll(decoder)

        // Lossless formats carry their exact length (2 s resample to 96000 frames; allow the
        // resampler's rounding of one frame). Lossy encoders add priming and padding samples; the
        // containers record both (LAME tag, MP4 edit list, Ogg granule positions, Opus pre-skip)
        // and the decoder trims them, but that is only as exact as each encoder's bookkeeping, which
        // varies by encoder version, so allow 1 %. (With Debian 12's encoders every case measures
        // exactly 96000.)
        let tolerance = format.codec.isLossless ? 1 : 960
        #expect(abs(frameCount(samples) - 96_000) <= tolerance, "\(frameCount(samples)) frames")
        #expect(!SignalMetrics.containsNaN(samples))
        #expect(SignalMetrics.peak(samples) <= 0.52)
        #expect(decoder.skippedCorruptPackets == 0)
        if let duration = decoder.duration { #expect(abs(duration - 2) < 0.1, "duration \(duration)") }

        let middle = SignalMetrics.middle(samples)
        let left = SignalMetrics.channel(0, of: middle)
        let right = SignalMetrics.channel(1, of: middle)
        for (name, channel) in [("left", left), ("right", right)] {
            let difference = SignalMetrics.decibels(SignalMetrics.rms(channel), relativeTo: Self.expectedRMS)
            #expect(abs(difference) <= 0.5, "\(name) channel is \(difference) dB off")
        }
        // The same signal on both channels: identical for mono (copied to both at full level);
        // lossy stereo codecs code mid/side, which leaves differences of a few 1e-6.
        let allowed: Float = format.layout == "mono" ? 0 : 1e-4
        #expect(SignalMetrics.maxDifference(left[...], right[...]) <= allowed)
    }

    @Test("Resampling 44.1 kHz keeps the pitch: a 440 Hz sine crosses zero 880 times a second",
          arguments: [AudioFixtures.Codec.wav, .mp3])
    func keepsPitch(_ codec: AudioFixtures.Codec) throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(codec, sampleRate: 44_100)
        let samples = try decodeAll(try FFmpegDecoder(url: file))
        let left = SignalMetrics.channel(0, of: SignalMetrics.middle(samples))
        let rate = SignalMetrics.zeroCrossingsPerSecond(left, sampleRate: AudioFormat.sampleRate)
        #expect(abs(rate - 880) <= 880 * 0.02, "\(rate) zero crossings per second")
    }

    @Test("5.1 is downmixed to stereo: front left and right reach their sides")
    func downmixes51() throws {
        let fixtures = try AudioFixtures()
        let file = fixtures.url("surround.flac")
        // 0.4 on front left only, 0.2 on front right only, silence elsewhere.
        try fixtures.ffmpeg([
            "-f", "lavfi", "-i",
            "aevalsrc=0.4*sin(2*PI*440*t)|0.2*sin(2*PI*440*t)|0|0|0|0:s=48000:c=5.1:d=1",
            "-c:a", "flac", file.path,
        ])
        let samples = try decodeAll(try FFmpegDecoder(url: file))
        #expect(abs(frameCount(samples) - 48_000) <= 4)
        let middle = SignalMetrics.middle(samples)
        let left = SignalMetrics.rms(SignalMetrics.channel(0, of: middle))
        let right = SignalMetrics.rms(SignalMetrics.channel(1, of: middle))
        #expect(abs(SignalMetrics.decibels(left, relativeTo: 0.4 / 2.0.squareRoot())) <= 0.5, "left \(left)")
        #expect(abs(SignalMetrics.decibels(right, relativeTo: 0.2 / 2.0.squareRoot())) <= 0.5, "right \(right)")
    }

    @Test("Reads of any size give the same audio as large ones (leftovers are kept in order)")
    func smallReadsMatchLargeReads() throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.flac, sampleRate: 44_100)
        let large = try decodeAll(try FFmpegDecoder(url: file), chunk: 16_384)
        for chunk in [1, 7, 1000] {
            let small = try decodeAll(try FFmpegDecoder(url: file), chunk: chunk)
            #expect(small.count == large.count, "chunk \(chunk)")
            #expect(SignalMetrics.maxDifference(small[...], large[...]) == 0, "chunk \(chunk)")
        }
    }

    @Test("The file's duration is known")
    func reportsDuration() throws {
        let fixtures = try AudioFixtures()
        for codec in [AudioFixtures.Codec.mp3, .flac, .wav, .aac] {
            let decoder = try FFmpegDecoder(url: try fixtures.sine(codec, sampleRate: 44_100))
            let duration = try #require(decoder.duration, "\(codec)")
            #expect(abs(duration - 2) < 0.05, "\(codec): \(duration)")
            #expect(decoder.isSeekable)
        }
    }
}
