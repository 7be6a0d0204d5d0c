import Foundation
import PlayerCore
import Synchronization
import TestProcesses
import Testing

@testable import AudioEngine

/// Loudness levelling measured in what the engine writes, by FFmpeg's own EBU R128 meter.
/// One render at a time: each is seconds of CPU in a debug build, and the real-time suites running
/// beside them must keep their cores.
@Suite("Loudness levelling in the rendered mix", .serialized, .blocking)
struct LoudnessRenderTests {
    private func render(
        _ tracks: [Track], loudness: LoudnessLevelling, volume: Volume = .full, fixtures: AudioFixtures, name: String,
        store: (any LoudnessStore)? = nil
    ) async throws -> (URL, UpdateLog) {
        let out = fixtures.url(name)
        let configuration = PlayerStateMachine.Configuration(fadeOutAtEnd: false, volume: volume, loudness: loudness)
        let player = AudioPlayer(
            output: WAVFileSink(path: out.path, encoding: .float32),
            options: .init(configuration: configuration, mode: .asFastAsPossible, loudnessStore: store))
        let request = try #require(PlayRequest(items: tracks.map { QueueItem(track: $0) }))
        // A bound against a hang, not a timing: measuring and levelling a file is seconds of CPU
        // in a debug build, and the whole suite runs beside it on two cores.
        let log = try await player.renderToTheEnd(request, timeout: 240)
        return (out, log)
    }

    /// A quiet and a loud file (-30 and -10 LUFS) both come out at the target, and no peak passes
    /// -1 dBTP.
    @Test func quietAndLoudFilesComeOutAtTheTarget() async throws {
        let fixtures = try AudioFixtures()
        let quiet = try fixtures.noise(lufs: -30, seconds: 12, seed: 2, name: "quiet.flac")
        let loud = try fixtures.noise(lufs: -10, seconds: 12, seed: 1, limit: 0.9, name: "loud.flac")
        let (out, log) = try await render([track(quiet), track(loud)], loudness: LoudnessLevelling(mode: .track), fixtures: fixtures, name: "out.wav")
        let first = try FFmpegLoudness.measure(out, from: 0, seconds: 12)
        let second = try FFmpegLoudness.measure(out, from: 12, seconds: 12)
        #expect(abs(first.integrated - -16) <= 1, "the quiet file came out at \(first)")
        #expect(abs(second.integrated - -16) <= 1, "the loud file came out at \(second)")
        #expect(first.truePeak <= -1 && second.truePeak <= -1, "peaks: \(first), \(second)")
        let gains = await log.updates.compactMap { if case .loudness(_, let gain?, _) = $0 { gain } else { nil } }
        #expect(gains.contains { abs($0 - 14) < 0.5 } && gains.contains { abs($0 - -6) < 0.5 }, "gains published: \(gains)")
    }

    /// Off leaves the mix exactly as it was mastered: no gain, no limiter, not a sample moved.
    @Test func offChangesNothing() async throws {
        let fixtures = try AudioFixtures()
        let tone = try fixtures.sine(.flac, sampleRate: 48_000, seconds: 2, frequency: 1_000, amplitude: 0.9, name: "tone.flac")
        let (out, _) = try await render([track(tone)], loudness: .off, fixtures: fixtures, name: "off.wav")
        let reference = try fixtures.referenceFrameCount(tone)
        let rendered = try WAVReader.read(path: out.path).channel(0)
        #expect(rendered.count == reference)
        #expect(abs((rendered.max() ?? 0) - 0.9) < 0.001, "the peak is untouched")
    }

    /// A target that asks more of a loud file than its peaks allow: the limiter keeps every
    /// reconstructed peak under -1 dBTP, so the boost never clips.
    @Test func theLimiterKeepsABoostUnderTheCeiling() async throws {
        let fixtures = try AudioFixtures()
        let loud = try fixtures.noise(lufs: -10, seconds: 10, seed: 3, limit: 0.9, name: "loud.flac")
        let input = try FFmpegLoudness.measure(loud)
        let (out, _) = try await render([track(loud)], loudness: LoudnessLevelling(mode: .track, target: -5), fixtures: fixtures, name: "out.wav")
        let output = try FFmpegLoudness.measure(out)
        #expect(input.truePeak + 5 > 0, "the test needs a boost past full scale: \(input)")
        #expect(output.truePeak <= -1, "boosted by 5 dB: \(output)")
        #expect(output.integrated > input.integrated + 2, "the boost is still there, limited: \(input) -> \(output)")
    }

    /// A volume of 150 % is limited too, levelling or not.
    @Test func aVolumeBoostIsLimited() async throws {
        let fixtures = try AudioFixtures()
        let loud = try fixtures.noise(lufs: -10, seconds: 6, seed: 4, limit: 0.95, name: "loud.flac")
        let (out, _) = try await render([track(loud)], loudness: .off, volume: Volume(1.5), fixtures: fixtures, name: "out.wav")
        let output = try FFmpegLoudness.measure(out)
        #expect(output.truePeak <= -1, "at 150 %: \(output)")
    }

    /// Session mode gives every stage the session's one gain: a quiet stage stays quieter than a
    /// loud one by what the mastering meant.
    @Test func sessionModeKeepsTheStagesRelativeLoudness() async throws {
        let fixtures = try AudioFixtures()
        let quiet = try fixtures.noise(lufs: -26, seconds: 10, seed: 5, name: "quiet.flac")
        let loud = try fixtures.noise(lufs: -18, seconds: 10, seed: 6, name: "loud.flac")
        let parts: [(loudness: Loudness?, duration: Double)] = [
            (Loudness(integrated: -26, source: .measured), 10), (Loudness(integrated: -18, source: .measured), 10),
        ]
        let session = Loudness.combined(parts)
        var stages = [track(quiet), track(loud)]
        for index in stages.indices {
            stages[index].loudness = parts[index].loudness
            stages[index].sessionLoudness = session
        }
        let (out, _) = try await render(stages, loudness: LoudnessLevelling(mode: .session), fixtures: fixtures, name: "out.wav")
        let first = try FFmpegLoudness.measure(out, from: 0, seconds: 10)
        let second = try FFmpegLoudness.measure(out, from: 10, seconds: 10)
        #expect(abs((second.integrated - first.integrated) - 8) <= 0.5, "stages: \(first), \(second)")
        #expect(abs(second.integrated - -16) < 3, "the session as a whole is near the target: \(first), \(second)")
    }

    /// A ReplayGain tag is believed: the file is levelled by it without being measured.
    @Test func aReplayGainTagIsUsed() async throws {
        let fixtures = try AudioFixtures()
        let untagged = try fixtures.noise(lufs: -20, seconds: 6, seed: 7, name: "untagged.flac")
        // The tag says -28 LUFS (-18 - 10 dB): the file is boosted by 12 dB, not the 4 dB it needs.
        let tagged = fixtures.url("tagged.flac")
        try fixtures.ffmpeg(["-i", untagged.path, "-c", "copy", "-metadata", "REPLAYGAIN_TRACK_GAIN=+10.00 dB", tagged.path])
        let (out, log) = try await render([track(tagged)], loudness: LoudnessLevelling(mode: .track), fixtures: fixtures, name: "out.wav")
        let output = try FFmpegLoudness.measure(out)
        #expect(output.integrated > -10, "levelled by the tag: \(output)")
        let gains = await log.updates.compactMap { if case .loudness(_, let gain?, _) = $0 { gain } else { nil } }
        #expect(gains.last.map { abs($0 - 12) < 0.01 } == true, "gains: \(gains)")
    }

    /// An album gain tag is the album's loudness: session levelling (ReplayGain's album mode)
    /// follows it, track levelling the track's own tag.
    @Test func anAlbumGainTagLevelsTheAlbumAsAWhole() async throws {
        let fixtures = try AudioFixtures()
        let untagged = try fixtures.noise(lufs: -20, seconds: 4, seed: 9, name: "untagged.flac")
        // The track is said to be -28 LUFS (+10 dB), its album -22 LUFS (+4 dB): at -16 LUFS the
        // track would get +12 dB, the album +6 dB.
        let tagged = fixtures.url("tagged.flac")
        try fixtures.ffmpeg([
            "-i", untagged.path, "-c", "copy", "-metadata", "REPLAYGAIN_TRACK_GAIN=+10.00 dB", "-metadata", "replaygain_album_gain=+4.00 dB",
            tagged.path,
        ])
        for (mode, expected) in [(LoudnessMode.session, 6.0), (.track, 12.0)] {
            let (_, log) = try await render(
                [track(tagged)], loudness: LoudnessLevelling(mode: mode), fixtures: fixtures, name: "out-\(mode).wav")
            let gains = await log.updates.compactMap { if case .loudness(_, let gain?, _) = $0 { gain } else { nil } }
            #expect(gains.last.map { abs($0 - expected) < 0.01 } == true, "\(mode): gains \(gains)")
        }
    }

    /// A measurement is given to the store and, the next time, taken from it instead of measuring.
    @Test func aMeasurementIsKeptAndReused() async throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.noise(lufs: -24, seconds: 5, seed: 8, name: "file.flac")
        let store = MemoryLoudnessStore()
        _ = try await render([track(file)], loudness: LoudnessLevelling(mode: .track), fixtures: fixtures, name: "first.wav", store: store)
        let kept = try #require(store.kept[file.lastPathComponent])
        #expect(kept.source == .measured && abs(kept.integrated - -24) <= 0.5, "kept: \(kept)")
        // A kept figure wins over measuring: pretend the file is 6 LU louder than it is.
        store.kept[file.lastPathComponent] = Loudness(integrated: kept.integrated + 6, source: .measured)
        let (out, _) = try await render([track(file)], loudness: LoudnessLevelling(mode: .track), fixtures: fixtures, name: "second.wav", store: store)
        #expect(abs(try FFmpegLoudness.measure(out).integrated - -22) <= 1)
    }
}

/// A `LoudnessStore` in memory, keyed by track id.
final class MemoryLoudnessStore: LoudnessStore {
    private let entries = Mutex<[String: Loudness]>([:])

    var kept: [String: Loudness] {
        get { entries.withLock { $0 } }
        set { entries.withLock { $0 = newValue } }
    }

    func loudness(of track: Track) -> Loudness? { kept[track.id] }
    func keep(_ loudness: Loudness, of track: Track) { entries.withLock { $0[track.id] = loudness } }
}
