import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// The whole engine on real files: FFmpeg decoding, decks, mixer, the state machine, a WAV file.
@Suite("AudioPlayer rendering real files", .blocking)
struct AudioPlayerRenderTests {
    static func configuration(crossfade: Double) -> PlayerStateMachine.Configuration {
        PlayerStateMachine.Configuration(defaultCrossfade: CrossfadeSpec(duration: crossfade, curve: .equalPower))
    }

    @Test func twoFilesCrossfadeIntoAWavFile() async throws {
        let fixtures = try AudioFixtures()
        let a = try fixtures.sine(.flac, sampleRate: 44_100, seconds: 3, frequency: 440, name: "a.flac")
        let b = try fixtures.sine(.mp3, sampleRate: 48_000, seconds: 3, frequency: 660, name: "b.mp3")
        let out = fixtures.url("out.wav").path
        let player = AudioPlayer(
            output: WAVFileSink(path: out, encoding: .float32),
            options: .init(configuration: Self.configuration(crossfade: 1), mode: .asFastAsPossible))
        let log = try await player.renderToTheEnd(PlayRequest(items: [QueueItem(track: track(a)), QueueItem(track: track(b))])!)

        #expect(await log.stateNames == [.idle, .preparing, .playing, .preparingCrossfade, .crossfading, .playing, .fadingOut, .finished])
        // Crossfade progress is published at least every 100 ms of audio, from 0 to 1.
        let fades = await log.updates.compactMap { u -> (Float, Double)? in
            if case .state(.crossfading(_, _, let p, _), let t, _) = u { (p, t) } else { nil }
        }
        #expect(fades.first?.0 == 0)
        #expect(zip(fades, fades.dropFirst()).allSatisfy { $1.1 - $0.1 <= 0.1 + 1e-9 })
        // Position at least 10 times a second of audio.
        let positions = await log.updates.compactMap { u -> Double? in if case .position(_, _, let t) = u { t } else { nil } }
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $1 - $0 <= 0.1 + 1e-9 })

        // 3 s + 3 s - 1 s of crossfade. The closing fade is decided on 10 Hz position reports and
        // starts 0.1 s early to absorb that: it ends between 0.1 s before the source and its end.
        let wav = try WAVReader.read(path: out)
        let seconds = Double(wav.samples.count / 2) / 48_000
        #expect(seconds >= 4.89 && seconds <= 5.03, "rendered \(seconds) s")
        let left = wav.channel(0)
        // A alone at 1 s, both during the fade, B alone at 3.5 s; all at the sine's level.
        #expect(abs(SignalMetrics.rms(left[40_000..<56_000]) - 0.5 / 2.0.squareRoot()) < 0.02)
        #expect(abs(SignalMetrics.rms(left[160_000..<176_000]) - 0.5 / 2.0.squareRoot()) < 0.03)
        #expect(SignalMetrics.peak(left) < 0.75)
        // Silence at the very end: the fade-out finished.
        #expect(SignalMetrics.peak(Array(left.suffix(200))) < 0.01)
    }

    @Test func badFilesEndInTypedErrorsOrCleanly() async throws {
        let fixtures = try AudioFixtures()
        let text = try fixtures.write("notes.mp3", Data("These are my notes, not audio.\n".utf8))
        let empty = try fixtures.write("empty.flac", Data())
        let good = try fixtures.sine(.mp3, sampleRate: 48_000, seconds: 2, name: "good.mp3")
        let bytes = try Data(contentsOf: good)
        let truncated = try fixtures.write("truncated.mp3", bytes.prefix(bytes.count / 2))
        let cases: [(URL, PlayerState.Name, PlaybackError.Code?)] = [
            (fixtures.url("missing.mp3"), .failed, .fileNotFound),
            (text, .failed, .unsupportedFormat),
            (empty, .finished, nil),
            (truncated, .finished, nil),
        ]
        for (url, expected, code) in cases {
            let player = AudioPlayer(output: NullSink(realtime: false), options: .init(mode: .asFastAsPossible))
            let log = UpdateLog()
            player.record(into: log)
            try await player.start()
            try await player.play(PlayRequest(track: Track(id: url.lastPathComponent, url: url, kind: .file)))
            // A bound, not a pace: it returns on the end; the run's opening seconds keep both cores busy.
            let ended = await log.wait(timeout: 60) { updates in
                updates.contains { if case .state(let s, _, _) = $0 { s.name == .finished || s.name == .failed } else { false } }
            }
            await player.shutdown()
            #expect(ended, "\(url.lastPathComponent) never ended")
            let last = await log.states.last
            #expect(last?.name == expected, "\(url.lastPathComponent): \(String(describing: last))")
            if let code {
                #expect(last?.error?.code == code, "\(url.lastPathComponent): \(String(describing: last?.error))")
                if case .failed(_, let recoverable, _) = last { #expect(!recoverable) }
            }
        }
    }

    @Test func sessionStageWithDurationIsCutExactly() async throws {
        let fixtures = try AudioFixtures()
        _ = try fixtures.sine(.flac, sampleRate: 48_000, seconds: 2, name: "loop.flac")
        _ = try fixtures.sine(.flac, sampleRate: 48_000, seconds: 2, frequency: 330, name: "end.flac")
        let json = """
            {"stages": [{"source": "loop.flac", "duration": 5, "crossfade": 0.5}, {"source": "end.flac"}]}
            """
        let session = try SessionFile.decode(Data(json.utf8))
        let request = try SessionPlanner.plan(session, base: fixtures.directory)
        // 5 s of a 2 s source: one 5 s track (the source repeats inside it), then the end stage.
        #expect(request.items.count == 2)
        let planned: Double = request.items.map { $0.track.duration ?? 0 }.reduce(0, +)
        #expect(planned - 2 == 5)
        let out = fixtures.url("session.wav").path
        let player = AudioPlayer(output: WAVFileSink(path: out, encoding: .float32), options: .init(mode: .asFastAsPossible))
        _ = try await player.renderToTheEnd(request)
        // 5 s + 2 s - 0.5 s crossfade; the closing fade ends up to 0.1 s early (see above).
        let seconds = Double(try WAVReader.read(path: out).samples.count / 2) / 48_000
        #expect(seconds >= 6.39 && seconds <= 6.51, "rendered \(seconds) s")
    }

    @Test func sessionFilesAreValidated() throws {
        let bad = [
            #"{"stages": []}"#,
            #"{"stages": [{"source": "a.flac", "crossfde": 3}]}"#,
            #"{"stages": [{"source": "a.flac", "loops": 2, "duration": 3}]}"#,
            #"{"stages": [{"source": "a.flac", "crossfade": 31}]}"#,
            #"{"stages": [{"source": "a.flac", "volume": 2}]}"#,
            #"not json"#,
        ]
        for json in bad {
            #expect(throws: PlaybackError.self, "\(json)") { try SessionFile.decode(Data(json.utf8)) }
            do { _ = try SessionFile.decode(Data(json.utf8)) } catch { #expect(error.code == .malformedData) }
        }
        #expect(throws: PlaybackError.self) {
            try SessionPlanner.plan(try SessionFile.decode(Data(#"{"stages": [{"source": "ftp://x/a.mp3"}]}"#.utf8)), base: URL(fileURLWithPath: "/"))
        }
    }
}
