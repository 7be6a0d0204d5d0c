import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// A session's bed and bells through the whole engine, rendered to a WAV file and measured there.
///
/// Session time and the WAV: in render mode a pause writes nothing (the output holds), and the
/// session's clock counts every frame mixed since the first stage started, the pause's de-click
/// ramps included. So the WAV frame of a session time is that time x 48 kHz, moved by every seek
/// by as much as the seek moved the stage (its target less the stage's position where it landed).
@Suite("Session layers rendered", .blocking)
struct LayerRenderTests {
    typealias R = LayerRender

    /// One onset per expected frame, each within 1 ms; the errors (frames) for the report.
    static func checkOnsets(_ measured: [Int], _ expected: [Int], sourceLocation: SourceLocation = #_sourceLocation) -> [Int] {
        #expect(measured.count == expected.count, "heard \(measured.count) strikes, expected \(expected.count): \(measured)", sourceLocation: sourceLocation)
        let errors = zip(measured, expected).map { $0 - $1 }
        #expect(errors.allSatisfy { abs($0) <= 48 }, "onset errors (frames) \(errors)", sourceLocation: sourceLocation)
        return errors
    }

    @Test func bellsStrikeOnTheirFramesThroughPauses() async throws {
        let fixtures = try AudioFixtures()
        try R.tone(440, amplitude: 0, seconds: 40, name: "silence.flac", in: fixtures)
        try R.sound(R.chirp(), seconds: 0.5, name: "bell.flac", in: fixtures)
        let request = try R.plan(
            #"{"stages": [{"source": "silence.flac"}], "bells": {"sound": "bell.flac", "interval": 10, "strikes": 2, "strikeSpacing": 3}}"#,
            in: fixtures)
        let executor = ThreadExecutor(name: "layers.pauses")
        let sink = SteppedWAVSink(path: fixtures.url("pauses.wav").path, executor: executor)
        let landed = Landings()
        // Pauses while a strike rings (3.2 s), between strikes (11.5 s), on a strike's own frame
        // (20 s) and just before one (29.9 s); each resumes once its de-click ramp has held.
        let log = try await R.render(request, into: sink, executor: executor) { player in
            for seconds in [3.2, 11.5, 20, 29.9] {
                sink.at(Int(seconds * 48_000)) { landing in
                    await landed.add(landing)
                    try? await player.pause()
                    sink.at(landing + 480) { _ in try? await player.resume() }
                }
            }
        }
        #expect(await landed.frames == [153_600, 552_000, 960_000, 1_435_200])
        // A strike due inside a pause's 10 ms de-click ramp is heard whole: at the resume.
        let deferred = 960_000 + 480
        let expected = [0, 3, 10, 13, 20, 23, 30, 33, 40, 43].map { Int($0 * 48_000) }.map { $0 == 960_000 ? deferred : $0 }
        let wav = try WAVReader.read(path: sink.path).channel(0)
        let errors = Self.checkOnsets(R.onsets(of: R.chirpTemplate(count: 960), in: wav), expected)
        print("bell onset errors through pauses (frames): \(errors)")
        // Each strike is told once, at the session time it sounded.
        let strikes = await R.strikes(log)
        #expect(strikes.map(\.skipped) == Array(repeating: false, count: 10))
        #expect(strikes.map(\.strike) == [1, 2, 1, 2, 1, 2, 1, 2, 1, 2])
        #expect(zip(strikes, expected).allSatisfy { abs($0.sessionTime * 48_000 - Double($1)) < 0.5 }, "\(strikes.map(\.sessionTime))")
        #expect(strikes.map(\.cue.kind) == [.start, .start, .interval, .interval, .interval, .interval, .interval, .interval, .end, .end])
    }

    @Test func seeksSkipTheBellsTheyJumpOverAndRingTheOthersOnTime() async throws {
        let fixtures = try AudioFixtures()
        try R.tone(440, amplitude: 0, seconds: 60, name: "silence.flac", in: fixtures)
        // A 40 ms bell: a strike a block (100 ms) after another is heard apart from it.
        try R.sound(R.chirp(seconds: 0.04, sweep: 50_000), seconds: 0.04, name: "bell.flac", in: fixtures)
        let request = try R.plan(#"{"stages": [{"source": "silence.flac"}], "bells": {"sound": "bell.flac", "interval": 10}}"#, in: fixtures)
        let executor = ThreadExecutor(name: "layers.seeks")
        let sink = SteppedWAVSink(path: fixtures.url("seeks.wav").path, executor: executor)
        let landed = Landings()
        let log = try await R.render(request, into: sink, executor: executor) { player in
            // Forward from 10.1 s to 35 s in the block where the 10 s bell strikes, before the
            // player has heard of that strike; later back from 41.9 s to 12 s.
            sink.at(484_800) { landing in
                await landed.add(landing)
                try? await player.seek(to: 35)
            }
            sink.at(816_000) { landing in
                await landed.add(landing)
                try? await player.seek(to: 12)
            }
        }
        #expect(await landed.frames == [484_800, 816_000])
        // WAV frame = session frame + offset; each seek changes the offset by -(target - position).
        let afterForward = 484_800 - 35 * 48_000
        let afterBack = 816_000 - 12 * 48_000
        let expected = [0, 480_000, 40 * 48_000 + afterForward] + [20, 30, 40, 50, 60].map { $0 * 48_000 + afterBack }
        let wav = try WAVReader.read(path: sink.path).channel(0)
        let template = R.chirpTemplate(count: 960, seconds: 0.04, sweep: 50_000)
        let errors = Self.checkOnsets(R.onsets(of: template, in: wav, gap: 960), expected)
        print("bell onset errors around seeks (frames): \(errors)")
        let strikes = await R.strikes(log)
        let skipped = strikes.filter(\.skipped)
        #expect(skipped.map(\.cue.at) == [20, 30], "\(skipped)")
        #expect(skipped.allSatisfy { $0.sessionTime == 35 })
        #expect(strikes.filter { !$0.skipped }.map(\.cue.at) == [0, 10, 40, 20, 30, 40, 50, 60])
        #expect(strikes.filter { !$0.skipped }.allSatisfy { abs($0.sessionTime - $0.cue.at) < 1e-9 }, "\(strikes)")
    }

    /// At 1.5x the stages play 12 s of session in 8 s: the bells keep to the session's time as
    /// the stages play it, and the end bell rings as the last stage ends, not 4 s after it.
    @Test func atAnotherSpeedTheBellsKeepToTheStagesTime() async throws {
        let fixtures = try AudioFixtures()
        try R.tone(440, amplitude: 0, seconds: 12, name: "silence.flac", in: fixtures)
        try R.sound(R.chirp(), seconds: 0.5, name: "bell.flac", in: fixtures)
        let request = try R.plan(#"{"stages": [{"source": "silence.flac"}], "bells": {"sound": "bell.flac", "interval": 10}}"#, in: fixtures)
        let executor = ThreadExecutor(name: "layers.speed")
        let sink = SteppedWAVSink(path: fixtures.url("speed.wav").path, executor: executor)
        let log = try await R.render(
            request, into: sink, executor: executor, configuration: PlayerStateMachine.Configuration(speed: PlaybackSpeed(1.5)))
        let wav = try WAVReader.read(path: sink.path).channel(0)
        let errors = Self.checkOnsets(R.onsets(of: R.chirpTemplate(count: 960), in: wav), [0, 320_000, 384_000])
        print("bell onset errors at 1.5x (frames): \(errors)")
        let rendered: Double = Double(wav.count) / 48_000
        #expect(abs(rendered - 8.5) <= 0.1, "rendered \(rendered) s")
        let strikes = await R.strikes(log)
        #expect(strikes.map(\.cue.at) == [0, 10, 12])
        #expect(zip(strikes, [0.0, 10, 12]).allSatisfy { abs($0.sessionTime - $1) < 1e-6 }, "\(strikes.map(\.sessionTime))")
    }
}

/// The frames where a render's steps landed, in order.
actor Landings {
    private(set) var frames: [Int] = []
    func add(_ frame: Int) { frames.append(frame) }
}
