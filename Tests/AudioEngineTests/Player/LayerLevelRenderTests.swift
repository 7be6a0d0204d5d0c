import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// The levels of a session's layers in the rendered WAV: the bed's duck and fades, every
/// component through a stage crossfade, and no step at any layer's start or end. Each component is
/// a sine of its own frequency (a multiple of 50 Hz), measured at that frequency.
@Suite("Session layer levels rendered", .blocking)
struct LayerLevelRenderTests {
    typealias R = LayerRender

    static let window = R.hann(960)

    /// The start de-click every session begins with (the master gain from 0 over 10 ms).
    static func master(_ n: Int) -> Double { R.ramp(n, begin: 0, frames: 480, from: 0, to: 1) }

    /// Equal-power gains of a crossfade of `frames` frames from frame `begin`, as the engine
    /// steps it (the first frame of the fade has its first step).
    static func fadeOut(_ n: Int, begin: Int, frames: Int) -> Double {
        n < begin ? 1 : n >= begin + frames ? 0 : cos(Double(n - begin + 1) / Double(frames) * .pi / 2)
    }

    static func fadeIn(_ n: Int, begin: Int, frames: Int) -> Double {
        n < begin ? 0 : n >= begin + frames ? 1 : sin(Double(n - begin + 1) / Double(frames) * .pi / 2)
    }

    /// Checks every component's level against the model and the whole render against it, sample
    /// by sample; prints both for the report.
    static func compare(_ wav: [Float], _ components: [R.Component], count: Int, label: String) {
        #expect(abs(wav.count - count) <= 4_800, "\(label): rendered \(Double(wav.count) / 48_000) s, expected \(Double(count) / 48_000) s")
        let model = R.model(components, master: Self.master, count: count)
        for (name, error, at) in R.levelErrors(of: wav, against: model, components) {
            print("\(label): \(name) level error at most \(error * 100) % of its level (\(20 * log10(max(error, 1e-12))) dB), at \(Double(at) / 48_000) s")
            #expect(error <= 1e-3, "\(label): \(name) is off by \(error * 100) % at \(Double(at) / 48_000) s")
        }
        var worst: (Float, Int) = (0, 0)
        for n in 0..<min(wav.count, count) where abs(wav[n] - model[n]) > worst.0 { worst = (abs(wav[n] - model[n]), n) }
        print("\(label): largest difference from the model \(worst.0) at \(Double(worst.1) / 48_000) s")
        #expect(worst.0 <= 1e-3, "\(label): the render differs from the model by \(worst.0) at \(Double(worst.1) / 48_000) s")
    }

    @Test func theDuckReachesItsDepthWithinTheAttackAndComesBackWithinTheRelease() async throws {
        let fixtures = try AudioFixtures()
        try R.tone(400, amplitude: 0.2, seconds: 4, name: "one.flac", in: fixtures)
        try R.tone(700, amplitude: 0.2, seconds: 6, name: "voice.flac", in: fixtures)
        try R.tone(400, amplitude: 0.2, seconds: 4, name: "three.flac", in: fixtures)
        try R.tone(250, amplitude: 0.5, seconds: 20, name: "bed.flac", in: fixtures)
        let request = try R.plan(
            """
            {"crossfade": 1, "stages": [{"source": "one.flac"}, {"source": "voice.flac", "voice": true}, {"source": "three.flac"}],
             "bed": {"source": "bed.flac", "level": 0.6, "fadeIn": 0.5, "fadeOut": 1, "duck": -12, "attack": 0.5, "release": 1.5}}
            """, in: fixtures)
        let executor = ThreadExecutor(name: "layers.duck")
        let sink = SteppedWAVSink(path: fixtures.url("duck.wav").path, executor: executor)
        _ = try await R.render(request, into: sink, executor: executor)
        let wav = try WAVReader.read(path: sink.path).channel(0)

        // Stages 4 s, 6 s (the voice) and 4 s with 1 s crossfades at 3 s and 8 s; the duck
        // begins with the crossfade into the voice and the release once the one out of it is
        // over (9 s); the stages end at 12 s and the bed fades out over 1 s.
        let full = 0.5 * 0.6
        let depth = pow(10, -12.0 / 20)
        let duckAt = 144_000, releaseAt = 432_000, closeAt = 576_000
        let components = [
            R.Component(name: "stage 1", frequency: 400, amplitude: 0.2, origin: 0) { Self.fadeOut($0, begin: duckAt, frames: 48_000) },
            R.Component(name: "voice", frequency: 700, amplitude: 0.2, origin: duckAt) {
                Self.fadeIn($0, begin: duckAt, frames: 48_000) * Self.fadeOut($0, begin: 384_000, frames: 48_000)
            },
            R.Component(name: "stage 3", frequency: 400, amplitude: 0.2, origin: 384_000) {
                $0 >= closeAt ? 0 : Self.fadeIn($0, begin: 384_000, frames: 48_000)
            },
            R.Component(name: "bed", frequency: 250, amplitude: full, origin: 0) { n in
                let fade = n < closeAt ? R.ramp(n, begin: 0, frames: 24_000, from: 0, to: 1) : R.ramp(n, begin: closeAt, frames: 48_000, from: 1, to: 0)
                let duck = n < releaseAt ? R.ramp(n, begin: duckAt, frames: 24_000, from: 1, to: depth) : R.ramp(n, begin: releaseAt, frames: 72_000, from: depth, to: 1)
                return fade * duck
            },
        ]
        Self.compare(wav, components, count: 624_000, label: "duck")

        // How long the bed took, measured at its frequency: to 99 % of the way down, and back.
        var reached: Int?
        var released: Int?
        for start in stride(from: duckAt - 480, to: min(wav.count, closeAt) - 960, by: 48) {
            let center = start + 480
            let level = R.level(of: wav, at: 250, from: start, window: Self.window)
            if reached == nil, center > duckAt, abs(level - full * depth) <= 0.01 * full * (1 - depth) { reached = center - duckAt }
            if released == nil, center > releaseAt, abs(level - full) <= 0.01 * full * (1 - depth) { released = center - releaseAt }
        }
        print("bed duck: 99 % of its depth after \(reached.map { Double($0) / 48 } ?? -1) ms (attack 500 ms), back to 99 % after \(released.map { Double($0) / 48 } ?? -1) ms (release 1500 ms)")
        #expect(reached.map { $0 <= 24_000 } == true, "the duck reached its depth after \(String(describing: reached)) frames")
        #expect(released.map { $0 <= 72_000 } == true, "the bed came back after \(String(describing: released)) frames")
    }

    @Test func aStageCrossfadeUnderABedAndABellKeepsEveryLevelExact() async throws {
        let fixtures = try AudioFixtures()
        try R.tone(400, amplitude: 0.3, seconds: 6, name: "a.flac", in: fixtures)
        try R.tone(700, amplitude: 0.3, seconds: 6, name: "b.flac", in: fixtures)
        try R.tone(250, amplitude: 0.4, seconds: 20, name: "bed.flac", in: fixtures)
        // A steady 2.5 s bell with 10 ms linear edges (no step).
        try R.sound(#"0.4*sin(2*PI*1500*t)*min(1\,min(t\,2.5-t)/0.01)"#, seconds: 2.5, name: "bell.flac", in: fixtures)
        let request = try R.plan(
            """
            {"stages": [{"source": "a.flac", "crossfade": 3}, {"source": "b.flac", "voice": true}],
             "bed": {"source": "bed.flac", "level": 0.5, "fadeIn": 0.5, "fadeOut": 1, "duck": -12, "attack": 1, "release": 1},
             "bells": {"sound": "bell.flac", "level": 0.5, "at": [3.5], "start": false, "end": false}}
            """, in: fixtures)
        let executor = ThreadExecutor(name: "layers.crossfade")
        let sink = SteppedWAVSink(path: fixtures.url("crossfade.wav").path, executor: executor)
        _ = try await R.render(request, into: sink, executor: executor)
        let wav = try WAVReader.read(path: sink.path).channel(0)

        // A alone to 3 s, the equal-power crossfade to 6 s, B alone to 9 s; the bed fades in over
        // 0.5 s, ducks from 3 s over 1 s under the voice coming in, and fades out over 1 s after
        // 9 s while its duck releases; the bell strikes at 3.5 s and rings 2.5 s.
        let fadeAt = 144_000, bellAt = 168_000, closeAt = 432_000
        let depth = pow(10, -12.0 / 20)
        let components = [
            R.Component(name: "stage A", frequency: 400, amplitude: 0.3, origin: 0) { Self.fadeOut($0, begin: fadeAt, frames: 144_000) },
            R.Component(name: "stage B", frequency: 700, amplitude: 0.3, origin: fadeAt) {
                $0 >= closeAt ? 0 : Self.fadeIn($0, begin: fadeAt, frames: 144_000)
            },
            R.Component(name: "bed", frequency: 250, amplitude: 0.2, origin: 0) { n in
                let fade = n < closeAt ? R.ramp(n, begin: 0, frames: 24_000, from: 0, to: 1) : R.ramp(n, begin: closeAt, frames: 48_000, from: 1, to: 0)
                // The voice is over at the close: the duck releases (1 s) as the bed fades away.
                let duck = n < closeAt
                    ? R.ramp(n, begin: fadeAt, frames: 48_000, from: 1, to: depth) : R.ramp(n, begin: closeAt, frames: 48_000, from: depth, to: 1)
                return fade * duck
            },
            R.Component(name: "bell", frequency: 1_500, amplitude: 0.2, origin: bellAt) { n in
                let i = n - bellAt
                return i >= 120_000 ? 0 : min(1, Double(i) / 480, Double(120_000 - i) / 480)
            },
        ]
        Self.compare(wav, components, count: 480_000, label: "crossfade")
    }

    /// The largest step between two samples that the material itself can make: each sine's
    /// amplitude times 2 sin(pi f / 48 kHz), the bell's own largest step, and what a de-click
    /// ramp (the fastest gain change, pi/2 over 480 frames at most per frame) adds to the sum.
    static func materialStep(sines: [(amplitude: Double, frequency: Double)], bell: (level: Double, template: [Float])) -> Float {
        let sineSteps = sines.map { $0.amplitude * 2 * sin(.pi * $0.frequency / R.rate) }.reduce(0, +)
        let bellStep = bell.level * Double(zip(bell.template, bell.template.dropFirst()).map { abs($1 - $0) }.max() ?? 0)
        let peak = sines.map(\.amplitude).reduce(0, +) + bell.level * 0.5
        return Float(sineSteps + bellStep + peak * .pi / 2 / 480)
    }

    @Test func noLayerStartsOrEndsWithAStep() async throws {
        let fixtures = try AudioFixtures()
        // 8 s of 300 Hz end on a whole cycle; the bed is longer than the session (no loop).
        try R.tone(300, amplitude: 0.3, seconds: 8, name: "stage.flac", in: fixtures)
        try R.tone(250, amplitude: 0.5, seconds: 20, name: "bed.flac", in: fixtures)
        try R.sound(R.chirp(), seconds: 0.5, name: "bell.flac", in: fixtures)
        let request = try R.plan(
            """
            {"stages": [{"source": "stage.flac"}],
             "bed": {"source": "bed.flac", "level": 0.6, "fadeIn": 0.5, "fadeOut": 1.5},
             "bells": {"sound": "bell.flac", "level": 0.8, "at": [2, 5]}}
            """, in: fixtures)
        let bound = Self.materialStep(
            sines: [(0.3, 300), (0.5 * 0.6, 250)], bell: (0.8, R.chirpTemplate(count: 24_000)))

        // To the end (a pause at 4 s on the way), and stopped while a bell rings at 5.1 s.
        for stopping in [false, true] {
            let executor = ThreadExecutor(name: "layers.steps")
            let sink = SteppedWAVSink(path: fixtures.url("steps-\(stopping).wav").path, executor: executor)
            let log = try await R.render(request, into: sink, executor: executor) { player in
                sink.at(192_000) { landing in
                    try? await player.pause()
                    sink.at(landing + 480) { _ in try? await player.resume() }
                }
                if stopping { sink.at(244_800) { _ in try? await player.stop() } }
            }
            let wav = try WAVReader.read(path: sink.path).channel(0)
            let step = R.largestStep(wav, in: 0..<wav.count)
            let edges = [abs(wav.first ?? 1), abs(wav.last ?? 1)]
            print("\(stopping ? "stopped" : "natural end"): largest step \(step.step) at \(Double(step.at) / 48_000) s, the material's own at most \(bound); first and last samples \(edges)")
            #expect(step.step <= bound, "a step of \(step.step) at \(Double(step.at) / 48_000) s (stopping: \(stopping))")
            #expect(edges.allSatisfy { $0 <= bound }, "the render starts or ends on a step: \(edges)")
            // The closing is whole: the bed faded out over 1.5 s after the end bell at 8 s.
            if !stopping {
                #expect(abs(wav.count - 456_000) <= 4_800, "rendered \(Double(wav.count) / 48_000) s")
                #expect(await R.strikes(log).map(\.cue.at) == [0, 2, 5, 8])
            } else {
                #expect(await R.strikes(log).map(\.cue.at) == [0, 2, 5])
                #expect(Double(wav.count) / 48_000 < 6, "the stop did not end the session")
            }
        }
    }
}
