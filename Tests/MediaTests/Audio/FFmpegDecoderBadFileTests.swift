import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

/// Bad inputs give their typed error or a clean end; nothing crashes or hangs.
@Suite("FFmpegDecoder bad files", .blocking)
struct FFmpegDecoderBadFileTests {
    @Test("A missing file is fileNotFound")
    func missingFile() throws {
        let fixtures = try AudioFixtures()
        #expect(throws: PlaybackError(.fileNotFound)) { try FFmpegDecoder(url: fixtures.url("nothing-here.mp3")) }
    }

    @Test("A directory is fileNotFound")
    func directory() throws {
        let fixtures = try AudioFixtures()
        #expect(throws: PlaybackError(.fileNotFound)) { try FFmpegDecoder(url: fixtures.directory) }
    }

    @Test("A text file renamed .mp3 is unsupportedFormat")
    func textRenamedMP3() throws {
        let fixtures = try AudioFixtures()
        let text = String(repeating: "This is a shopping list, not a song.\n", count: 100)
        let file = try fixtures.write("list.mp3", Data(text.utf8))
        #expect(throws: PlaybackError(.unsupportedFormat)) { try FFmpegDecoder(url: file) }
    }

    @Test("An image renamed .mp3 (media, but no audio stream) is unsupportedFormat")
    func imageWithoutAudio() throws {
        let fixtures = try AudioFixtures()
        let file = fixtures.url("cover.png")
        try fixtures.ffmpeg(["-f", "lavfi", "-i", "color=red:s=16x16", "-frames:v", "1", file.path])
        let renamed = fixtures.url("cover.mp3")
        try FileManager.default.moveItem(at: file, to: renamed)
        #expect(throws: PlaybackError(.unsupportedFormat)) { try FFmpegDecoder(url: renamed) }
    }

    @Test("A web URL is not opened by the file decoder")
    func remoteURL() throws {
        #expect(throws: PlaybackError(.unsupportedFormat)) {
            try FFmpegDecoder(url: URL(string: "http://127.0.0.1:9/stream.mp3")!)
        }
    }

    @Test("An empty file ends cleanly with no frames")
    func emptyFile() throws {
        let fixtures = try AudioFixtures()
        let decoder = try FFmpegDecoder(url: try fixtures.write("empty.mp3", Data()))
        #expect(try decodeAll(decoder).isEmpty)
        #expect(decoder.duration ?? 0 == 0)
        try decoder.seek(to: 1)
        #expect(try decodeAll(decoder).isEmpty)
    }

    @Test("A truncated file ends cleanly with about the frames it holds",
          arguments: [AudioFixtures.Codec.mp3, .flac, .vorbis, .opus, .wav])
    func truncatedFile(_ codec: AudioFixtures.Codec) throws {
        let fixtures = try AudioFixtures()
        let sampleRate = codec == .opus ? 48_000 : 44_100
        let whole = try fixtures.sine(codec, sampleRate: sampleRate, seconds: 4)
        let bytes = try Data(contentsOf: whole)
        let half = try fixtures.write("half.\(codec.fileExtension)", bytes.prefix(bytes.count / 2))
        let decoder = try FFmpegDecoder(url: half)
        let samples = try decodeAll(decoder)
        #expect(!SignalMetrics.containsNaN(samples))
        if codec == .mp3 || codec == .wav {
            // Constant bitrate and a small header: half the bytes hold half the audio.
            #expect(abs(frameCount(samples) - 96_000) <= 9_600, "\(frameCount(samples)) frames")
        } else {
            // Variable bitrate, and Vorbis's codebooks take a third of a small file: compare with
            // what the ffmpeg tool gets out of the same bytes.
            let reference = try fixtures.referenceFrameCount(half)
            #expect(reference > 0)
            #expect(abs(frameCount(samples) - reference) <= max(reference / 50, 1_024),
                    "\(frameCount(samples)) frames, ffmpeg decodes \(reference)")
        }
    }

    @Test("Random bytes over 2 KB in the middle of an mp3: skipped, decoding goes on to the end")
    func corruptMiddle() throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.mp3, sampleRate: 44_100, seconds: 4)
        var bytes = try Data(contentsOf: file)
        var random = SplitMix64(seed: 0x70_6E_65_61_72_6D)
        let middle = bytes.count / 2
        for index in middle..<(middle + 2_048) { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
        let corrupt = try fixtures.write("corrupt.mp3", bytes)

        let decoder = try FFmpegDecoder(url: corrupt)
        let samples = try decodeAll(decoder)
        #expect(decoder.skippedCorruptPackets > 0 || frameCount(samples) >= 172_800, "\(frameCount(samples)) frames")
        #expect(frameCount(samples) >= 172_800, "\(frameCount(samples)) frames of 192000")
        #expect(!SignalMetrics.containsNaN(samples))
    }

    @Test("An mp3 whose second half is random bytes ends without hanging, corrupt packets counted")
    func randomTail() throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.mp3, sampleRate: 44_100, seconds: 4)
        var bytes = try Data(contentsOf: file)
        var random = SplitMix64(seed: 42)
        for index in (bytes.count / 2)..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
        let decoder = try FFmpegDecoder(url: try fixtures.write("noise-tail.mp3", bytes))
        let samples = try decodeAll(decoder)
        #expect(frameCount(samples) >= 86_400, "\(frameCount(samples)) frames")
        #expect(frameCount(samples) <= 192_000 + 4_800, "\(frameCount(samples)) frames")
        #expect(!SignalMetrics.containsNaN(samples))
    }

    @Test("A file without read permission is permissionDenied")
    func unreadableFile() throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.wav, sampleRate: 48_000, seconds: 0.1)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
        // root reads any file regardless of its mode (CAP_DAC_OVERRIDE), and the tests run as
        // root in CI containers, so the denial can only be observed as another user.
        if getuid() != 0 {
            #expect(throws: PlaybackError(.permissionDenied)) { try FFmpegDecoder(url: file) }
        } else {
            #expect(throws: Never.self) { try FFmpegDecoder(url: file) }
        }
    }
}

/// A small deterministic generator, so the "random" corruption is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
