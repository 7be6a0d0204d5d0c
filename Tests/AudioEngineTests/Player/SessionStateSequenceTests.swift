import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// The built-in three-stage demo through the real player: a session plays idle -> preparing ->
/// playing, then preparingCrossfade -> crossfading (progress 0 -> 1) -> playing into each next
/// stage, then fadingOut -> finished. Its middle stage loops a 25 s source to 40 s, and that loop
/// is not a handover: the stage is one track, "Breath", with a 40 s clock.
@Suite("Session state sequence", .blocking)
struct SessionStateSequenceTests {
    static let demo = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/tonearm/Demo/demo.json")

    @Test func theDemoPlaysEachStageOnceWithTwoCrossfades() async throws {
        let session = try SessionFile.load(from: Self.demo)
        let request = try SessionPlanner.plan(session, base: Self.demo.deletingLastPathComponent())
        #expect(request.items.map { $0.track.title } == ["Arrival", "Breath", "Return"])
        #expect(request.items[1].track.duration == 40)

        let player = AudioPlayer(output: NullSink(realtime: false), options: .init(mode: .asFastAsPossible))
        let log = try await player.renderToTheEnd(request, timeout: 120)

        let handover: [PlayerState.Name] = [.preparingCrossfade, .crossfading, .playing]
        #expect(await log.stateNames == [.idle, .preparing, .playing] + handover + handover + [.fadingOut, .finished])

        // Each crossfade runs from 0 to 1 with progress at least every 100 ms of audio.
        var fades: [[(progress: Float, t: Double)]] = []
        var inFade = false
        for update in await log.updates {
            guard case .state(let state, let t, _) = update else { continue }
            if case .crossfading(_, _, let p, _) = state {
                if !inFade { fades.append([]) }
                inFade = true
                fades[fades.count - 1].append((p, t))
            } else {
                inFade = false
            }
        }
        #expect(fades.count == 2)
        for fade in fades {
            #expect(fade.first?.progress == 0 && fade.last?.progress == 1)
            let gaps = zip(fade, fade.dropFirst()).map { $1.t - $0.t }
            #expect(gaps.allSatisfy { $0 <= 0.1 + 1e-9 }, "largest gap \(gaps.max() ?? 0) s")
            // A crossfade of 6 s of audio, not an instant switch.
            let fadeSeconds: Double = (fade.last?.t ?? 0) - (fade.first?.t ?? 0)
            #expect(abs(fadeSeconds - 6) < 0.01)
        }

        // "Breath" plays once, and its clock runs over the whole stage.
        let playing = await log.states.compactMap { s -> String? in if case .playing(let t) = s { t.title } else { nil } }
        var titles: [String] = []
        for title in playing where titles.last != title { titles.append(title) }
        #expect(titles == ["Arrival", "Breath", "Return"])
        let breathPositions = await log.updates.compactMap { u -> Double? in
            if case .position(let p, 40?, _) = u { p } else { nil }
        }
        #expect((breathPositions.max() ?? 0) > 30, "Breath's position reached \(breathPositions.max() ?? 0) s")
    }
}
