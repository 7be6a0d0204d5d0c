import Foundation
import PlayerCore
import Presentation
import Testing

/// A 3-stage meditation session, event by event.
@Suite("3-stage meditation session")
struct MeditationSessionTests {
    @Test func threeStageSessionWithPauseMidCrossfade() throws {
        var d = Driver(Fixture.config(crossfade: 10))
        let stages = [Fixture.stage1, Fixture.stage2, Fixture.stage3]
        let request = PlayRequest(items: stages.map { QueueItem(track: $0, crossfadeIntoNext: CrossfadeSpec(duration: 10)) })!

        // Start: idle -> preparing(stage1) -> playing(stage1)
        #expect(d.state == .idle)
        let start = try d.send(.play(request))
        #expect(start.last == .load(d.lastLoad!, deck: .a, track: Fixture.stage1, from: 0))
        #expect(d.state == .preparing(track: Fixture.stage1))
        #expect(try d.send(.loaded(d.lastLoad!, duration: 600)) == [.start(.a)])
        #expect(d.state == .playing(track: Fixture.stage1))

        // Stage 1 -> 2: the next stage loads 5 s before the 10 s crossfade point (585 s).
        #expect(try d.send(.positionChanged(.a, position: 584.9)).isEmpty)
        let prep = try d.send(.positionChanged(.a, position: 585))
        #expect(prep == [.load(d.lastLoad!, deck: .b, track: Fixture.stage2, from: 0)])
        #expect(d.state == .preparingCrossfade(currentTrack: Fixture.stage1, nextTrack: Fixture.stage2))
        // Loaded: the crossfade is armed sample-accurately at 590 s on deck A.
        let armed = try d.send(.loaded(d.lastLoad!, duration: 600))
        #expect(armed == [.scheduleCrossfade(from: .a, to: .b, duration: 10, curve: .equalPower, atPosition: 590)])
        #expect(d.state.name == .preparingCrossfade)
        try d.send(.positionChanged(.a, position: 590))
        try d.send(.crossfadeStarted)
        #expect(d.state == .crossfading(fromTrack: Fixture.stage1, toTrack: Fixture.stage2, progress: 0, canQuickFinish: false))

        // Pause during crossfade at 47 %: continueFromProgress.
        try d.send(.crossfadeProgress(0.47, fromPosition: 594.7, toPosition: 4.7))
        try d.send(.pause)
        guard case .crossfadePaused(_, _, let p, .continueFromProgress, let snapshot) = d.state else {
            Issue.record("expected crossfadePaused(continueFromProgress), got \(d.state)")
            return
        }
        #expect(abs(p - 0.47) < 0.001)
        #expect(snapshot.originalDuration == 10)
        #expect(d.state.displayText(in: .english) == "Paused during transition (47%, resuming)")

        // Resume: crossfading 0.47 -> 1.0 -> playing(stage2).
        try d.send(.resume)
        #expect(d.state == .crossfading(fromTrack: Fixture.stage1, toTrack: Fixture.stage2, progress: 0.47, canQuickFinish: false))
        for step in stride(from: Float(0.5), through: 1.0, by: 0.1) {
            try d.send(.crossfadeProgress(step, fromPosition: 590 + Double(step) * 10, toPosition: Double(step) * 10))
        }
        #expect(try d.send(.crossfadeCompleted) == [.unload(.a), .trackFinished(Fixture.stage1)])
        #expect(d.state == .playing(track: Fixture.stage2))

        // Stage 2 -> 3, from deck B to deck A.
        try d.send(.positionChanged(.b, position: 585))
        #expect(d.lastLoadDeck == .a)
        #expect(try d.send(.loaded(d.lastLoad!, duration: 600)) == [.scheduleCrossfade(from: .b, to: .a, duration: 10, curve: .equalPower, atPosition: 590)])
        try d.send(.crossfadeStarted)
        try d.send(.crossfadeProgress(1, fromPosition: 600, toPosition: 10))
        try d.send(.crossfadeCompleted)
        #expect(d.state == .playing(track: Fixture.stage3))

        // Finish: playing(stage3) -> fadingOut -> finished.
        try d.send(.positionChanged(.a, position: 599.3))
        #expect(d.state == .playing(track: Fixture.stage3))
        #expect(try d.send(.positionChanged(.a, position: 599.4)) == [.fadeOut(duration: 0.5)])
        #expect(d.state == .fadingOut(track: Fixture.stage3, targetDuration: 0.5))
        let end = try d.send(.fadeOutCompleted)
        #expect(end.contains(.trackFinished(Fixture.stage3)))
        #expect(d.state == .finished)

        #expect(d.names == [
            .idle, .preparing, .playing, .preparingCrossfade, .crossfading, .crossfadePaused, .crossfading,
            .playing, .preparingCrossfade, .crossfading, .playing, .fadingOut, .finished,
        ])
    }

    @Test func shortTracksGetShorterCrossfades() throws {
        // 8 s tracks with a 10 s crossfade: no fade may cover more than half of either track.
        var d = Driver(Fixture.config(crossfade: 10))
        let a = Fixture.file("short-a", duration: 8)
        let b = Fixture.file("short-b", duration: 8)
        try d.send(.play(Fixture.request(a, b)))
        try d.send(.loaded(d.lastLoad!, duration: 8))
        try d.send(.positionChanged(.a, position: 0.1))
        #expect(d.state.name == .preparingCrossfade)
        let armed = try d.send(.loaded(d.lastLoad!, duration: 8))
        #expect(armed == [.scheduleCrossfade(from: .a, to: .b, duration: 4, curve: .equalPower, atPosition: 4)])
    }

    @Test func gaplessWhenCrossfadeIsZero() throws {
        var d = Driver(Fixture.config(crossfade: 0))
        try d.send(.play(Fixture.request(Fixture.stage1, Fixture.stage2)))
        try d.send(.loaded(d.lastLoad!, duration: 600))
        try d.send(.positionChanged(.a, position: 596))
        #expect(try d.send(.loaded(d.lastLoad!, duration: 600)) == [.scheduleCrossfade(from: .a, to: .b, duration: 0, curve: .equalPower, atPosition: 600)])
    }

    @Test func nextItemThatFailsIsSkippedAndReported() throws {
        var d = try Driver.playing(Fixture.stage1, Fixture.file("broken"), Fixture.stage3)
        try d.send(.skip)
        let effects = try d.send(.loadFailed(d.lastLoad!, PlaybackError(.corruptData), at: .zero))
        #expect(effects.first == .reportNonFatal(PlaybackError(.corruptData)))
        #expect(d.state == .preparingCrossfade(currentTrack: Fixture.stage1, nextTrack: Fixture.stage3))
    }
}
