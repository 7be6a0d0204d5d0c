import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// Speed with the pitch kept, measured in what the engine writes.
@Suite("Speed in the rendered mix", .blocking)
struct SpeedRenderTests {
    /// Renders `file` at `speed`: the left channel and every update.
    private func render(_ file: URL, speed: PlaybackSpeed, fixtures: AudioFixtures, name: String) async throws -> ([Float], UpdateLog) {
        let out = fixtures.url(name).path
        let configuration = PlayerStateMachine.Configuration(fadeOutAtEnd: false, speed: speed)
        let player = AudioPlayer(
            output: WAVFileSink(path: out, encoding: .float32), options: .init(configuration: configuration, mode: .asFastAsPossible))
        let log = try await player.renderToTheEnd(PlayRequest(track: track(file)))
        return (try WAVReader.read(path: out).channel(0), log)
    }

    /// The strongest frequency of `samples`, from a windowed DFT around `near` (a coarse scan, then
    /// a fine one): enough to tell 1,000 Hz from 1,010 Hz.
    static func peakFrequency(_ samples: ArraySlice<Float>, near: Double) -> Double {
        func power(_ f: Double) -> Double {
            var re = 0.0, im = 0.0
            let n = Double(samples.count)
            for (i, x) in samples.enumerated() {
                let w = 0.5 - 0.5 * cos(2 * .pi * Double(i) / n)
                let phase = 2 * .pi * f * Double(i) / 48_000
                re += Double(x) * w * cos(phase)
                im += Double(x) * w * sin(phase)
            }
            return re * re + im * im
        }
        var best = near
        for step in [10.0, 1.0, 0.1] {
            let candidates = stride(from: best - 20 * step, through: best + 20 * step, by: step)
            best = candidates.max { power($0) < power($1) } ?? best
        }
        return best
    }

    @Test func aToneAtOneAndAHalfKeepsItsPitchAndTakesTwoThirdsOfTheTime() async throws {
        let fixtures = try AudioFixtures()
        let tone = try fixtures.sine(.flac, sampleRate: 48_000, seconds: 6, frequency: 1_000, name: "tone.flac")
        let (left, log) = try await render(tone, speed: PlaybackSpeed(1.5), fixtures: fixtures, name: "fast.wav")
        let seconds = Double(left.count) / 48_000
        #expect(abs(seconds - 4) <= 0.04, "6 s at 1.5x lasted \(seconds) s")
        let peak = Self.peakFrequency(left[48_000..<57_600], near: 1_000)
        #expect(abs(peak - 1_000) <= 10, "the tone is at \(peak) Hz")
        // Positions stay in media time: the last one is near the file's end, not at 4 s.
        let positions = await log.updates.compactMap { u -> Double? in if case .position(let p, _, _) = u { p } else { nil } }
        #expect((positions.last ?? 0) > 5.7, "last position \(positions.last ?? 0)")
        #expect(await log.updates.contains { if case .speed(let s, _) = $0 { s == PlaybackSpeed(1.5) } else { false } })
    }

    /// Real speech (espeak-ng) at 2x: half the length within 2 %, and the voice's pitch kept
    /// (its autocorrelation period over voiced frames within 5 %).
    @Test func speechAtTwiceTheSpeedKeepsItsPitch() async throws {
        let fixtures = try AudioFixtures()
        let wav = fixtures.url("speech-mono.wav")
        let espeak = Process()
        espeak.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        espeak.arguments = ["-w", wav.path, "Radio plays all night long while the city sleeps and the river runs slowly to the sea."]
        try espeak.run()
        espeak.waitUntilExit()
        #expect(espeak.terminationStatus == 0, "espeak-ng could not speak (is it installed?)")
        let speech = fixtures.url("speech.flac")
        try fixtures.ffmpeg(["-i", wav.path, "-ar", "48000", "-ac", "2", speech.path])
        let (normal, _) = try await render(speech, speed: .normal, fixtures: fixtures, name: "normal.wav")
        let (fast, _) = try await render(speech, speed: PlaybackSpeed(2), fixtures: fixtures, name: "double.wav")
        let ratio = Double(fast.count) / Double(normal.count)
        #expect(abs(ratio - 0.5) <= 0.01, "2x is \(ratio) of the length")
        let before = try #require(Self.medianPitch(normal))
        let after = try #require(Self.medianPitch(fast))
        #expect(abs(after / before - 1) <= 0.05, "pitch \(before) Hz became \(after) Hz")
    }

    /// The median fundamental (Hz) of 40 ms frames that are voiced (a clear autocorrelation peak
    /// between 70 and 400 Hz).
    static func medianPitch(_ samples: [Float]) -> Double? {
        let frame = 1_920
        var pitches: [Double] = []
        for start in stride(from: 0, to: samples.count - frame, by: frame) {
            let x = samples[start..<(start + frame)].map(Double.init)
            let energy = x.reduce(0) { $0 + $1 * $1 }
            guard energy > 1e-3 * Double(frame) * 0.01 else { continue }
            var bestLag = 0
            var best = 0.0
            for lag in 120...685 {
                var sum = 0.0
                for i in 0..<(frame - lag) { sum += x[i] * x[i + lag] }
                if sum > best { best = sum; bestLag = lag }
            }
            if best > 0.5 * energy, bestLag > 0 { pitches.append(48_000 / Double(bestLag)) }
        }
        guard pitches.count >= 5 else { return nil }
        return pitches.sorted()[pitches.count / 2]
    }
}
