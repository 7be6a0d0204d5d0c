import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// The player's decisions and its updates run on its own thread: CPU-bound work elsewhere in the
/// process that takes every thread of the shared pool holds back neither.
@Suite("The player keeps time while the pool is busy", .blocking)
struct PoolSaturationTests {
    @Test func aPlayingPlayerReportsAndObeysWhileEveryPoolThreadSpins() async throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.flac, sampleRate: 48_000, seconds: 60, name: "tone.flac")
        let player = AudioPlayer(output: NullSink(realtime: true), options: .init(mode: .realtime))
        let log = UpdateLog()
        player.record(into: log)
        try await player.start()
        try await player.play(PlayRequest(track: track(file)))
        #expect(await eventually(timeout: 30) { await log.stateNames.contains(.playing) }, "never played")

        let hogs = PoolHogs()
        defer { hogs.stop() }
        // The hogs queue behind every job the other tests running beside this one have put on the
        // same two threads (plain `swift test` runs them all at once): on a busy machine that queue
        // has taken more than 30 s to drain. Patience, not a weaker check: what follows holds only
        // once they spin.
        #expect(await eventually(timeout: 120) { hogs.holdPool }, "the hogs never got a thread of the pool")
        let mark = await log.updates.count

        // Positions come every 100 ms of audio: two seconds' worth, while nothing else can run.
        let reported = await eventually(timeout: 10) { await Self.positions(in: log, after: mark).count >= 20 }
        let positions = await Self.positions(in: log, after: mark)
        #expect(reported, "positions while the pool spun: \(positions)")
        #expect(positions == positions.sorted(), "positions go forward")

        try await player.pause()
        #expect(await eventually(timeout: 2) { await log.states.last?.name == .paused }, "the pause was not published")
        try await player.resume()
        let resumedAt = await log.updates.count
        #expect(await eventually(timeout: 10) { await Self.positions(in: log, after: resumedAt).count >= 5 }, "no positions after resume")

        #expect(hogs.heldThroughout, "a pool thread came free: this run proved nothing")
        hogs.stop()
        await player.shutdown()
    }

    static func positions(in log: UpdateLog, after mark: Int) async -> [Double] {
        await log.updates.dropFirst(mark).compactMap { if case .position(let p, _, _) = $0 { p } else { nil } }
    }
}
