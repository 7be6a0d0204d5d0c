import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// A queue edited while it plays, on the whole engine: the item after the current one changes
/// without interrupting it, and the new one is the one heard next.
@Suite("AudioPlayer changing what plays next", .blocking)
struct UpcomingRenderTests {
    @Test func theItemSetWhileTheFirstPlaysIsHeardNextWithItsCrossfade() async throws {
        let fixtures = try AudioFixtures()
        // A is long enough that the change lands while it plays, however fast the render runs.
        let a = track(try fixtures.sine(.flac, sampleRate: 48_000, seconds: 20, frequency: 440, name: "a.flac"))
        let b = track(try fixtures.sine(.flac, sampleRate: 48_000, seconds: 5, frequency: 660, name: "b.flac"))
        let c = track(try fixtures.sine(.flac, sampleRate: 48_000, seconds: 4, frequency: 880, name: "c.flac"))
        let out = fixtures.url("out.wav").path
        let player = AudioPlayer(
            output: WAVFileSink(path: out, encoding: .float32),
            options: .init(
                configuration: PlayerStateMachine.Configuration(defaultCrossfade: CrossfadeSpec(duration: 3, curve: .equalPower)),
                mode: .asFastAsPossible))
        let log = UpdateLog()
        let updates = player.updates
        // As a front end would: once B is being made ready after A (rendering loads it as soon as
        // A plays), the listener's queue changes to C, with a 1 s crossfade.
        Task(executorPreference: player.executor) {
            var changed = false
            for await update in updates {
                await log.append(update)
                if !changed, case .state(.preparingCrossfade(_, let next), _, _) = update, next == b {
                    changed = true
                    try? await player.setUpcoming([QueueItem(track: c)], crossfadeFromCurrent: CrossfadeSpec(duration: 1, curve: .equalPower))
                }
            }
        }
        try await player.start()
        try await player.play(PlayRequest(items: [QueueItem(track: a), QueueItem(track: b)])!)
        #expect(await log.wait(timeout: 60, reached(.finished)), "the render did not finish")
        await player.shutdown()

        let states = await log.states
        // B was being prepared, then C took its place while A played on, and C is what came after A.
        #expect(states.contains(.preparingCrossfade(currentTrack: a, nextTrack: b)))
        #expect(states.contains(.preparingCrossfade(currentTrack: a, nextTrack: c)))
        #expect(!states.contains { $0.name == .crossfading && $0.nextTrack != c })
        let heard = states.compactMap { if case .playing(let t) = $0 { t } else { nil } }
        #expect(heard.first == a && heard.last == c && !heard.contains(b), "\(heard.map(\.id))")
        #expect(await log.stateNames == [.idle, .preparing, .playing, .preparingCrossfade, .crossfading, .playing, .fadingOut, .finished])
        let notices = await log.updates.compactMap { u -> PlayerNotice? in if case .notice(let n, _) = u { n } else { nil } }
        #expect(notices.compactMap { if case .trackFinished(let t) = $0 { t } else { nil } } == [a, c])
        #expect(notices.compactMap { if case .currentItem(let i) = $0 { i } else { nil } } == [0, 1])

        // The crossfade asked for, 1 s of audio (the default is 3 s), from A's last second.
        let fades = await log.updates.compactMap { u -> (Float, Double)? in
            if case .state(.crossfading(_, _, let p, _), let t, _) = u { (p, t) } else { nil }
        }
        let fadeEnd = await log.updates.first { u in if case .state(.playing(let t), _, _) = u { t == c } else { false } }?.audioTime
        if let start = fades.first?.1, let fadeEnd {
            #expect(abs(fadeEnd - start - 1) < 0.15, "the crossfade lasted \(fadeEnd - start) s")
            #expect(abs(start - 19) < 0.15, "the crossfade began at \(start) s")
        } else {
            Issue.record("no crossfade into C")
        }
        // 20 s of A + 4 s of C - 1 s of crossfade; the closing fade ends up to 0.1 s early.
        let seconds = Double(try WAVReader.read(path: out).samples.count / 2) / 48_000
        #expect(seconds >= 22.89 && seconds <= 23.03, "rendered \(seconds) s")
    }
}
