import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// A file's integrated loudness, measured by Tonearm and checked against FFmpeg's own meter. One
/// test at a time: a measurement takes every core.
@Suite("File loudness", .serialized, .blocking)
struct FileLoudnessTests {
    @Test func theMeasurementAgreesWithFFmpeg() throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.noise(lufs: -23, seconds: 20, seed: 11, name: "noise.flac")
        let measured = try #require(try FileLoudness.measure(file))
        let reference = try FFmpegLoudness.measure(file)
        #expect(measured.source == .measured)
        #expect(abs(measured.integrated - reference.integrated) <= 0.2, "Tonearm \(measured.integrated), FFmpeg \(reference)")
    }

    /// A long file measured in parallel parts gives what one pass gives: the parts' blocks are
    /// gated together.
    @Test func partsAddUpToTheWhole() throws {
        let fixtures = try AudioFixtures()
        // Loud first half, quiet second: a gate applied per part would get this wrong.
        let loud = try fixtures.noise(lufs: -14, seconds: 75, seed: 12, name: "loud.flac")
        let quiet = try fixtures.noise(lufs: -34, seconds: 75, seed: 13, name: "quiet.flac")
        let file = fixtures.url("both.flac")
        try fixtures.ffmpeg(["-i", loud.path, "-i", quiet.path, "-filter_complex", "[0][1]concat=n=2:v=0:a=1", file.path])
        let whole = try #require(try FileLoudness.measure(file, parts: 1))
        let parts = try #require(try FileLoudness.measure(file, parts: 4))
        #expect(abs(whole.integrated - parts.integrated) <= 0.1, "one pass \(whole.integrated), four parts \(parts.integrated)")
        #expect(abs(parts.integrated - (try FFmpegLoudness.measure(file).integrated)) <= 0.2)
    }

    /// A mono file is measured as mono (half the work) but as it is heard, on both speakers:
    /// what FFmpeg's meter gives for the same channel on left and right.
    @Test func aMonoFileIsMeasuredAsItIsHeard() throws {
        let fixtures = try AudioFixtures()
        let stereo = try fixtures.noise(lufs: -24, seconds: 10, seed: 15, name: "stereo.flac")
        let mono = fixtures.url("mono.flac")
        try fixtures.ffmpeg(["-i", stereo.path, "-ac", "1", mono.path])
        let dual = fixtures.url("dual.flac")
        try fixtures.ffmpeg(["-i", mono.path, "-af", "pan=stereo|c0=c0|c1=c0", dual.path])
        let measured = try #require(try FileLoudness.measure(mono))
        let reference = try FFmpegLoudness.measure(dual)
        #expect(abs(measured.integrated - reference.integrated) <= 0.2, "mono \(measured.integrated), as heard \(reference)")
    }

    @Test func anOpusR128TagIsReadInsteadOfMeasuring() throws {
        let fixtures = try AudioFixtures()
        let noise = try fixtures.noise(lufs: -20, seconds: 3, seed: 14, name: "noise.flac")
        let tagged = fixtures.url("tagged.opus")
        // FFmpeg's Opus muxer writes the stream tag into the OpusTags header.
        try fixtures.ffmpeg(["-i", noise.path, "-c:a", "libopus", "-metadata:s:a:0", "R128_TRACK_GAIN=-768", tagged.path])
        let loudness = try #require(try FileLoudness.measure(tagged))
        #expect(loudness == Loudness(integrated: -20, source: .r128Tag))
    }

    @Test func silenceHasNoLoudness() throws {
        let fixtures = try AudioFixtures()
        let silence = try fixtures.sine(.flac, sampleRate: 48_000, seconds: 3, amplitude: 0, name: "silence.flac")
        #expect(try FileLoudness.measure(silence) == nil)
    }

    @Test func aMissingOrDamagedFileIsATypedError() throws {
        let fixtures = try AudioFixtures()
        #expect(throws: PlaybackError.self) { try FileLoudness.measure(fixtures.url("missing.flac")) }
        let junk = try fixtures.write("junk.mp3", Data(repeating: 0x5A, count: 10_000))
        #expect(throws: PlaybackError.self) { try FileLoudness.measure(junk) }
    }
}
