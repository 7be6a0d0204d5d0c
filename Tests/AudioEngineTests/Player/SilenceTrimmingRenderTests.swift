import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// A file with long gaps, trimmed through the whole engine: shorter by the expected amount, with
/// positions still in media time and the saving told.
@Suite("Silence trimming in the rendered mix", .blocking)
struct SilenceTrimmingRenderTests {
    @Test func aFileWithThreeSecondGapsComesOutShorterByWhatWasTrimmed() async throws {
        let fixtures = try AudioFixtures()
        // 2 s of tone, 3 s of silence, 2 s, 3 s, 2 s: 12 s, of which two silences of 2.75 s go.
        let sounding: (Int) -> Bool = { frame in frame < 96_000 || (240_000..<336_000).contains(frame) || frame >= 480_000 }
        let sample: (Int) -> Int16 = { frame in
            guard sounding(frame) else { return 0 }
            return Int16(16_384 * sin(2 * Double.pi * 440 * Double(frame) / 48_000))
        }
        let file = try fixtures.write("gaps.wav", PCMWAV.data(frames: 576_000, sampleRate: 48_000, left: sample, right: sample))
        let out = fixtures.url("trimmed.wav").path
        let configuration = PlayerStateMachine.Configuration(fadeOutAtEnd: false, trimsSilence: true)
        let player = AudioPlayer(
            output: WAVFileSink(path: out, encoding: .float32), options: .init(configuration: configuration, mode: .asFastAsPossible))
        let log = try await player.renderToTheEnd(PlayRequest(track: track(file)))
        let seconds = Double(try WAVReader.read(path: out).channel(0).count) / 48_000
        #expect(abs(seconds - 6.5) <= 0.05, "12 s with two 3 s gaps came out as \(seconds) s")
        let trimmed = await log.updates.compactMap { u -> Double? in
            if case .notice(.silenceTrimmed(_, let s), _) = u { s } else { nil }
        }
        #expect(abs((trimmed.last ?? 0) - 5.5) <= 0.05, "told \(trimmed)")
        let positions = await log.updates.compactMap { u -> Double? in if case .position(let p, _, _) = u { p } else { nil } }
        #expect((positions.last ?? 0) > 11.5, "positions stay in media time: last \(positions.last ?? 0)")
    }
}
