import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// Built-in sounds through the whole engine (factory, decks, loop, mixer, state machine) into a
/// WAV file: a timer's shape, a second of silence and then the bell.
@Suite("Synthesised sounds rendered", .blocking)
struct SynthRenderTests {
    @Test func aBellAfterASecondOfSilenceStrikesOnTheFrameAndRingsItsTwelveSeconds() async throws {
        let fixtures = try AudioFixtures()
        let out = fixtures.url("bell.wav").path
        let silence = Track(
            id: "silence", url: BuiltInSound.silence.url, kind: .file, title: "Silence", loop: SourceLoop(.seconds(1)))
        let bowl = Track(
            id: "bowl", url: BuiltInSound.bowl.url, kind: .file, title: "Bowl",
            duration: FileDurationProbe.duration(of: BuiltInSound.bowl.url))
        let player = AudioPlayer(
            output: WAVFileSink(path: out, encoding: .float32),
            options: .init(configuration: PlayerStateMachine.Configuration(fadeOutAtEnd: false), mode: .asFastAsPossible))
        let log = try await player.renderToTheEnd(PlayRequest(items: [QueueItem(track: silence), QueueItem(track: bowl)])!)
        #expect(await log.stateNames.last == .finished)

        let wav = try WAVReader.read(path: out)
        let left = wav.channel(0)
        let strike = 48_000
        #expect(wav.sampleRate == 48_000 && wav.channels == 2)
        #expect(left.count == strike + BowlBell.frames, "rendered \(left.count) frames")
        // Silence up to the strike, and the strike within a millisecond of it (-40 dBFS).
        #expect(left[0..<strike].allSatisfy { $0 == 0 })
        let onset = left.firstIndex { abs($0) > 0.01 }
        #expect(onset.map { $0 >= strike && $0 < strike + 48 } == true, "onset at frame \(String(describing: onset))")
        // The bell itself, frame for frame, to its silent last frame.
        let bell = SignalMetrics.channel(0, of: try SynthesizedDecoder(sound: .bowl).readFrames(BowlBell.frames))
        #expect(SignalMetrics.maxDifference(left[strike...], bell[...]) < 1e-6)
        #expect(left.last == 0)
    }
}
