import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

/// Seeking is sample-accurate: the first frame after `seek(to:)` is the target frame.
@Suite("FFmpegDecoder seeking", .blocking)
struct FFmpegDecoderSeekTests {
    @Test("Seek to 1 s of 2 s of 48 kHz FLAC: exactly the second half remains, sample for sample")
    func seeksSampleAccurately() throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.flac, sampleRate: 48_000)
        let whole = try decodeAll(try FFmpegDecoder(url: file))

        let decoder = try FFmpegDecoder(url: file)
        var start = [Float](repeating: 0, count: 2 * 300)
        _ = try decoder.read(into: &start, maxFrames: 300)  // leave leftovers behind, too
        try decoder.seek(to: 1.0)
        let rest = try decodeAll(decoder, chunk: 1024)
        #expect(abs(frameCount(rest) - 48_000) <= 1, "\(frameCount(rest)) frames")
        let expected = whole[(48_000 * 2)...]
        #expect(SignalMetrics.maxDifference(rest[...], expected) <= 1e-6)
    }

    @Test("Seek at 44.1 kHz lands within a frame of the 48 kHz timeline")
    func seeksAccuratelyThroughTheResampler() throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.flac, sampleRate: 44_100)
        let whole = try decodeAll(try FFmpegDecoder(url: file))
        let decoder = try FFmpegDecoder(url: file)
        try decoder.seek(to: 1.0)
        let rest = try decodeAll(decoder)
        #expect(abs(frameCount(rest) - 48_000) <= 1, "\(frameCount(rest)) frames")
        // A one-frame slip of a 440 Hz sine at 0.5 would differ by about 0.03. Samples before the
        // target are dropped at the input rate, so the resampler starts on the same grid as a
        // decode from the start; its fresh filter history only matters for a few dozen frames.
        let settled = 64 * 2
        let difference = SignalMetrics.maxDifference(rest[settled...], whole[(48_000 * 2 + settled)...])
        #expect(difference < 1e-4, "max difference \(difference)")
    }

    @Test("Seek to 0 after reading everything gives the whole file again")
    func seeksBackToTheStart() throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.flac, sampleRate: 44_100)
        let decoder = try FFmpegDecoder(url: file)
        let first = try decodeAll(decoder)
        var buffer = [Float](repeating: 0, count: 2 * 64)
        #expect(try decoder.read(into: &buffer, maxFrames: 64) == 0)
        try decoder.seek(to: 0)
        let second = try decodeAll(decoder)
        #expect(first.count == second.count)
        #expect(SignalMetrics.maxDifference(first[...], second[...]) == 0)
    }

    @Test("Seek in lossy formats is sample-accurate too (the decoder lands early and drops the pre-roll)",
          arguments: [AudioFixtures.Codec.mp3, .aac, .vorbis, .opus])
    func seeksInLossyFormats(_ codec: AudioFixtures.Codec) throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(codec, sampleRate: codec == .opus ? 48_000 : 44_100, seconds: 4)
        let whole = try decodeAll(try FFmpegDecoder(url: file))
        let decoder = try FFmpegDecoder(url: file)
        try decoder.seek(to: 3.0)
        let rest = try decodeAll(decoder)
        #expect(abs(frameCount(rest) - (frameCount(whole) - 144_000)) <= 1, "\(frameCount(rest)) frames")
        // Without the pre-roll the first mp3 frame after a seek is off by 0.1 (bit reservoir, MDCT
        // overlap). Skip the resampler's first frames and the encoder padding at the very end.
        let margin = 128 * 2
        guard rest.count > 2 * margin else { return }
        let difference = SignalMetrics.maxDifference(
            rest[margin..<(rest.count - margin)], whole[(144_000 * 2 + margin)...])
        #expect(difference < 1e-3, "max difference \(difference)")
    }

    @Test("Seek targets are clamped: past the end ends, before the start starts")
    func clampsTargets() throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.wav, sampleRate: 48_000)
        let decoder = try FFmpegDecoder(url: file)
        try decoder.seek(to: 10)
        #expect(try decodeAll(decoder).isEmpty)
        try decoder.seek(to: -5)
        #expect(frameCount(try decodeAll(decoder)) == 96_000)
        try decoder.seek(to: .nan)
        #expect(frameCount(try decodeAll(decoder)) == 96_000)
    }
}
