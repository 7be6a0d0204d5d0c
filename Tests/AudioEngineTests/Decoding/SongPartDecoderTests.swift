import Foundation
import TestProcesses
import Testing

@testable import AudioEngine
import Media
import PlayerCore

/// A cue sheet's track plays its part of the image to the sample: an image of three tones made
/// by ffmpeg at 44.1 kHz (so the part is resampled to the engine's 48 kHz), track 2 opened as
/// the file decoder factory opens it, read to its end.
@Suite("Song part decoder")
struct SongPartDecoderTests {
    /// Hertz of the three tones; seconds of each (the second starts at 2 s, the third at 5 s).
    static let tones: [(hertz: Double, seconds: Double)] = [(300, 2), (1_000, 3), (2_500, 2.5)]

    static func image() throws -> URL {
        let inputs = tones.flatMap { ["-f", "lavfi", "-i", "sine=frequency=\(Int($0.hertz)):duration=\($0.seconds):sample_rate=44100"] }
        let data = try FFmpegFixture.make(
            inputs + ["-filter_complex", "[0][1][2]concat=n=3:v=0:a=1", "-c:a", "flac"], fileName: "image.flac"
        ).get()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-cue-\(UUID().uuidString).flac")
        try data.write(to: url)
        return url
    }

    /// The power of `hertz` in the left channel of `frames` (Goertzel), to tell the tones apart.
    static func power(_ hertz: Double, in frames: ArraySlice<Float>) -> Double {
        let left = stride(from: frames.startIndex, to: frames.endIndex, by: 2).map { Double(frames[$0]) }
        let w = 2 * Double.pi * hertz / Double(AudioFormat.sampleRate)
        var (s1, s2) = (0.0, 0.0)
        for x in left {
            let s = x + 2 * cos(w) * s1 - s2
            (s2, s1) = (s1, s)
        }
        return s1 * s1 + s2 * s2 - 2 * cos(w) * s1 * s2
    }

    /// The tone (index into `tones`) loudest in `frames`.
    static func tone(of frames: ArraySlice<Float>) -> Int {
        let powers = tones.map { power($0.hertz, in: frames) }
        return powers.indices.max { powers[$0] < powers[$1] }!
    }

    static func readAll(_ decoder: any AudioDecoder) throws -> [Float] {
        var all: [Float] = []
        var buffer = [Float](repeating: 0, count: 4_096 * AudioFormat.channelCount)
        while true {
            let read = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, maxFrames: 4_096) }
            if read == 0 { break }
            all += buffer[..<(read * AudioFormat.channelCount)]
            #expect(all.count < 20 * AudioFormat.sampleRate * AudioFormat.channelCount, "the part never ends")
        }
        return all
    }

    @Test func trackTwoIsExactlyItsSamplesOfToneTwo() throws {
        let url = try Self.image()
        defer { try? FileManager.default.removeItem(at: url) }
        // Track 2 of "INDEX 01 00:02:00" then "INDEX 01 00:05:00".
        let part = SongPart(image: "image.flac", startFrame: 150, endFrame: 375)
        let track = Track.localFile(id: "t2", url: url, tags: SongTags(values: [.title: ["Middle"]], audio: AudioProperties(duration: 3)).with(part))
        let decoder = try FileDecoderFactory().makeDecoder(for: track, load: LoadCancellation())
        #expect(decoder.duration == 3)
        let samples = try Self.readAll(decoder)
        let frames = samples.count / AudioFormat.channelCount
        #expect(frames == 3 * AudioFormat.sampleRate, "exactly the part's length at 48 kHz")
        // The first and the last 5 ms are tone 2's, and so is the middle.
        let edge = 240 * AudioFormat.channelCount
        #expect(Self.tone(of: samples[..<edge]) == 1)
        #expect(Self.tone(of: samples[(samples.count - edge)...]) == 1)
        #expect(Self.tone(of: samples[(samples.count / 2)..<(samples.count / 2 + edge)]) == 1)
        // Not a silent part: the edges carry the tone at full level.
        #expect(samples[..<edge].map { abs($0) }.max() ?? 0 > 0.05)
        #expect(samples[(samples.count - edge)...].map { abs($0) }.max() ?? 0 > 0.05)
    }

    @Test func theLastTrackRunsToTheEndAndSeeksAreTheTracksOwn() throws {
        let url = try Self.image()
        defer { try? FileManager.default.removeItem(at: url) }
        let part = SongPart(image: "image.flac", startFrame: 375, endFrame: nil)
        let track = Track.localFile(id: "t3", url: url, tags: SongTags().with(part))
        let decoder = try FileDecoderFactory().makeDecoder(for: track, load: LoadCancellation())
        #expect(abs((decoder.duration ?? 0) - 2.5) < 0.01)
        let whole = try Self.readAll(decoder)
        #expect(abs(whole.count / AudioFormat.channelCount - 120_000) <= 8, "to the image's end: \(whole.count / 2) frames")
        #expect(Self.tone(of: whole[..<480]) == 2)

        // Track 2 sought to 1 s in: 2 s remain, all tone 2.
        let middle = try FileDecoderFactory().makeDecoder(
            for: Track.localFile(id: "t2", url: url, tags: SongTags().with(SongPart(image: "image.flac", startFrame: 150, endFrame: 375))),
            load: LoadCancellation())
        try middle.seek(to: 1)
        let rest = try Self.readAll(middle)
        #expect(rest.count / AudioFormat.channelCount == 2 * AudioFormat.sampleRate)
        #expect(Self.tone(of: rest[..<480]) == 1 && Self.tone(of: rest[(rest.count - 480)...]) == 1)
    }
}

extension SongTags {
    fileprivate func with(_ part: SongPart) -> SongTags {
        var tags = self
        tags.part = part
        return tags
    }
}
