import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// End to end through a real PulseAudio daemon started by the test: what the sink's monitor
/// records, the server dying and coming back, the device disappearing.
@Suite("AudioPlayer through PulseAudio", .blocking)
struct AudioPlayerPulseTests {
    /// How long a wait may last before the awaited event counts as never coming. Each wait returns
    /// as soon as its event arrives; the bound is generous because these suites start with the
    /// whole test run, whose first half-minute keeps both cores busy (fixtures encoded, daemons and
    /// servers started), and real-time playback can take that long to reach its first second.
    static let patience: Double = 60

    @Test func playsToPulseAudioWithTheExpectedLength() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.flac, sampleRate: 48_000, seconds: 3, name: "tone.flac")
        let recording = fixtures.url("recording.wav").path
        try daemon.startRecording(to: recording)
        let player = AudioPlayer(output: PulseAudioSink(server: daemon.serverAddress))
        let log = UpdateLog()
        player.record(into: log)
        try await player.start()
        try await player.play(PlayRequest(track: track(file)))
        #expect(await log.wait(timeout: Self.patience, reached(.finished)))
        await player.shutdown()
        try daemon.waitForRecording(seconds: 0.3)
        daemon.stopRecording()

        let wav = try WAVReader.read(path: recording)
        let left = wav.channel(0)
        let threshold: Float = 0.01  // -40 dBFS
        guard let first = left.firstIndex(where: { abs($0) > threshold }), let last = left.lastIndex(where: { abs($0) > threshold }) else {
            Issue.record("the recording is silent")
            return
        }
        let audible = Double(last - first) / Double(wav.sampleRate)
        // 3 s of tone; the closing fade (0.5 s, ending 0.1 s early) falls below -40 dBFS a bit
        // before its end: about 2.85 s. The fade is decided on the 10 Hz position reports, so on a
        // busy machine it can start late and the tone sound to its very end: at most the file's
        // 3 s (plus a few ms of recording). Played too fast or cut short would be far below.
        #expect(audible >= 2.85 * 0.95 && audible <= 3.05, "audible for \(audible) s")
        #expect(SignalMetrics.rms(left[first..<(first + 48_000)]) > 0.3)
        #expect(await log.stateNames == [.idle, .preparing, .playing, .fadingOut, .finished])
    }

    @Test func serverLostHoldsPlaybackAndResumesWhenItIsBack() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.flac, sampleRate: 48_000, seconds: 8, name: "long.flac")
        let player = AudioPlayer(output: PulseAudioSink(server: daemon.serverAddress))
        let log = UpdateLog()
        player.record(into: log)
        try await player.start()
        try await player.play(PlayRequest(track: track(file)))
        #expect(await log.wait(timeout: Self.patience) { updates in
            updates.contains { if case .position(let p, _, _) = $0 { p >= 1 } else { false } }
        })
        daemon.kill()
        // Held, visibly: reconnecting with the output-lost cause, never a silent "playing".
        #expect(await log.wait(timeout: Self.patience) { updates in
            updates.contains { if case .state(.reconnecting(_, _, _, _, let cause), _, _) = $0 { cause.code == .audioOutputLost } else { false } }
        })
        let heldAt = await player.state
        #expect(heldAt.name == .reconnecting)
        try daemon.restart()
        #expect(await log.wait(timeout: Self.patience) { updates in
            guard let i = updates.lastIndex(where: { if case .state(let s, _, _) = $0 { s.name == .reconnecting } else { false } }) else { return false }
            return updates[i...].contains { if case .state(let s, _, _) = $0 { s.name == .playing } else { false } }
        }, "playback did not resume after the server came back")
        let recovered = await log.updates.contains {
            if case .notice(.recovered(let e, .automaticRetry), _) = $0 { e.code == .audioOutputLost } else { false }
        }
        #expect(recovered)
        #expect(await log.wait(timeout: Self.patience, reached(.finished)))
        await player.shutdown()
        #expect(!(await log.stateNames.contains(.failed)))
    }

    @Test func deviceRemovedPausesAndSaysWhy() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.flac, sampleRate: 48_000, seconds: 8, name: "long.flac")
        let module = try daemon.loadNullSink(name: "headphones")
        let player = AudioPlayer(output: PulseAudioSink(server: daemon.serverAddress, device: "headphones"))
        let log = UpdateLog()
        player.record(into: log)
        try await player.start()
        try await player.play(PlayRequest(track: track(file)))
        #expect(await log.wait(timeout: Self.patience) { updates in
            updates.contains { if case .position(let p, _, _) = $0 { p >= 0.5 } else { false } }
        })
        try daemon.unloadModule(module)
        #expect(await log.wait(timeout: Self.patience, reached(.paused)), "unplugging the device did not pause")
        let told = await log.updates.contains { if case .notice(.routeChanged(.deviceRemoved), _) = $0 { true } else { false } }
        #expect(told)
        await player.shutdown()
    }
}
