import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// A looped session stage through the whole engine (session planner, FFmpeg, decks, mixer, state
/// machine, WAV file): one track to the player, its repeats joined inside the deck. The sources'
/// samples number themselves, so the rendered file says which source frame every frame is.
@Suite("Looped session stages rendered", .blocking)
struct LoopedStageRenderTests {
    static let sourceFrames = LoopingDecoderTests.sourceFrames
    /// The start of playback ramps in over 10 ms (a de-click), scaling the first frames.
    static let rampFrames = 960

    struct Rendered {
        let left: [Float]
        let right: [Float]
        let stateNames: [PlayerState.Name]
        let playingTitles: [String]
        /// Durations published with positions while the first stage played.
        let firstStageDurations: Set<Double>
    }

    /// Renders `stages` (JSON) followed by a marked 0.5 s stage, with no closing fade, so the file
    /// ends where the sources do.
    static func render(_ stages: String) async throws -> Rendered {
        let fixtures = try AudioFixtures()
        try fixtures.write("loop.wav", CountingWAV.data(frames: sourceFrames))
        try fixtures.write("mark.wav", CountingWAV.data(frames: sourceFrames, marker: 1))
        let json = #"{"stages": [\#(stages), {"title": "Mark", "source": "mark.wav"}]}"#
        let request = try SessionPlanner.plan(try SessionFile.decode(Data(json.utf8)), base: fixtures.directory)
        let out = fixtures.url("session.wav").path
        let configuration = PlayerStateMachine.Configuration(fadeOutAtEnd: false)
        let player = AudioPlayer(
            output: WAVFileSink(path: out, encoding: .float32), options: .init(configuration: configuration, mode: .asFastAsPossible))
        let log = try await player.renderToTheEnd(request)
        let wav = try WAVReader.read(path: out)
        var titles: [String] = []
        var durations: Set<Double> = []
        var firstStage = true
        for update in await log.updates {
            switch update {
            case .state(.playing(let track), _, _):
                if titles.last != track.title { titles.append(track.title ?? "?") }
                firstStage = titles.count <= 1
            case .state(.crossfading, _, _):
                firstStage = false
            case .position(_, let duration?, _) where firstStage:
                durations.insert(duration)
            default:
                break
            }
        }
        return Rendered(
            left: wav.channel(0), right: wav.channel(1), stateNames: await log.stateNames, playingTitles: titles,
            firstStageDurations: durations)
    }

    /// The first frame (from `start`) whose numbers differ from `expected`; a render shorter than
    /// `end` is a mismatch too (never an out-of-range read that would end the whole test run).
    static func firstMismatch(_ r: Rendered, from start: Int, to end: Int, _ expected: (Int) -> (Int, Int)) -> String? {
        guard end <= min(r.left.count, r.right.count) else { return "the render has \(r.left.count) frames, fewer than \(end)" }
        for i in start..<end {
            let got = (CountingWAV.number(r.left[i]), CountingWAV.number(r.right[i]))
            if got != expected(i) { return "frame \(i): \(got), expected \(expected(i))" }
        }
        return nil
    }

    @Test func gaplessRepeatsAreOneTrackWithNoFrameLostOrRepeated() async throws {
        let r = try await Self.render(#"{"title": "Loop", "source": "loop.wav", "loops": 3}"#)
        // One handover (into the marked stage), not one per repeat.
        #expect(r.stateNames == [.idle, .preparing, .playing, .preparingCrossfade, .crossfading, .playing, .finished])
        #expect(r.playingTitles == ["Loop", "Mark"])
        #expect(r.firstStageDurations == [1.5])
        let loopEnd = 3 * Self.sourceFrames
        #expect(r.left.count == loopEnd + Self.sourceFrames)
        #expect(Self.firstMismatch(r, from: Self.rampFrames, to: loopEnd) { ($0 % Self.sourceFrames, 0) } == nil)
        #expect(Self.firstMismatch(r, from: loopEnd, to: r.left.count) { ($0 - loopEnd, 1) } == nil)
    }

    @Test func aDurationStageEndsAtExactlyItsLength() async throws {
        let r = try await Self.render(#"{"title": "Loop", "source": "loop.wav", "duration": 1.3}"#)
        #expect(r.stateNames == [.idle, .preparing, .playing, .preparingCrossfade, .crossfading, .playing, .finished])
        #expect(r.playingTitles == ["Loop", "Mark"])
        #expect(r.firstStageDurations == [1.3])
        // 1.3 s is 62 400 frames: the marked stage's first frame is the next one.
        let cut = 62_400
        #expect(r.left.count == cut + Self.sourceFrames)
        #expect(Self.firstMismatch(r, from: Self.rampFrames, to: cut) { ($0 % Self.sourceFrames, 0) } == nil)
        #expect(Self.firstMismatch(r, from: cut, to: r.left.count) { ($0 - cut, 1) } == nil)
    }

    @Test func aLoopCrossfadeOverlapsTheRepeatsInsideTheTrack() async throws {
        let r = try await Self.render(
            #"{"title": "Loop", "source": "loop.wav", "loops": 2, "loopCrossfade": 0.1, "curve": "linear"}"#)
        // The overlap is a seam in the audio, not a crossfade of the player.
        #expect(r.stateNames == [.idle, .preparing, .playing, .preparingCrossfade, .crossfading, .playing, .finished])
        #expect(r.playingTitles == ["Loop", "Mark"])
        let overlap = 4_800
        let tailStart = Self.sourceFrames - overlap
        let loopEnd = 2 * Self.sourceFrames - overlap
        #expect(r.left.count == loopEnd + Self.sourceFrames)
        #expect(Self.firstMismatch(r, from: Self.rampFrames, to: tailStart) { ($0, 0) } == nil)
        var worst: Float = 0
        for j in 0..<overlap {
            let g = FadeCurve.linear.gains(at: Double(j + 1) / Double(overlap))
            let expected = Float(Double(CountingWAV.sample(tailStart + j)) * g.outgoing + Double(CountingWAV.sample(j)) * g.incoming)
            worst = max(worst, abs(r.left[tailStart + j] - expected))
        }
        #expect(worst < 1e-6, "overlap differs by up to \(worst)")
        #expect(Self.firstMismatch(r, from: Self.sourceFrames, to: loopEnd) { ($0 - tailStart, 0) } == nil)
        #expect(Self.firstMismatch(r, from: loopEnd, to: r.left.count) { ($0 - loopEnd, 1) } == nil)
    }
}
