import Foundation
import PlayerCore
import Presentation
import Testing

/// Pause in the middle of a crossfade keeps a snapshot; resume continues below 50 % and
/// quick-finishes in 1 s from 50 %.
@Suite("Crossfade pause and resume")
struct CrossfadePauseTests {
    @Test(arguments: [Float(0), 0.3, 0.5, 0.8, 1.0])
    func pauseCapturesSnapshotAndStrategy(_ progress: Float) throws {
        var d = try Driver.crossfading(at: progress)
        let effects = try d.send(.pause)
        #expect(effects == [.pauseOutput])
        guard case .crossfadePaused(let from, let to, let p, let strategy, let snapshot) = d.state else {
            Issue.record("expected crossfadePaused, got \(d.state)")
            return
        }
        #expect(from.id == Fixture.stage1.id)
        #expect(to.id == Fixture.stage2.id)
        #expect(abs(p - progress) < 0.001)
        #expect(strategy == (progress < 0.5 ? .continueFromProgress : .quickFinish))
        let gains = FadeCurve.equalPower.gains(at: Double(progress))
        #expect(abs(Double(snapshot.activeVolume) - gains.outgoing) < 1e-6)
        #expect(abs(Double(snapshot.inactiveVolume) - gains.incoming) < 1e-6)
        #expect(abs(snapshot.activePosition - (100 + Double(progress) * 2)) < 1e-9)
        #expect(abs(snapshot.inactivePosition - Double(progress) * 2) < 1e-9)
        #expect(snapshot.activePlayer == .a)
        #expect(snapshot.originalDuration == 2)
        #expect(snapshot.curve == .equalPower)
        #expect(d.state.isValid)
        #expect(d.state.statusText(in: .english) == "Paused (\(Int(progress * 100))%)")
    }

    @Test(arguments: [Float(0), 0.3, 0.49])
    func resumeBelowHalfContinuesFromProgress(_ progress: Float) throws {
        var d = try Driver.crossfadePaused(at: progress)
        let effects = try d.send(.resume)
        #expect(effects == [.continueCrossfade(fromProgress: progress, duration: 2, curve: .equalPower), .resumeOutput])
        #expect(d.state == .crossfading(fromTrack: Fixture.stage1, toTrack: Fixture.stage2, progress: progress, canQuickFinish: false))
        try d.send(.crossfadeProgress(1, fromPosition: 102, toPosition: 2))
        try d.send(.crossfadeCompleted)
        #expect(d.state == .playing(track: Fixture.stage2))
    }

    @Test(arguments: [Float(0.5), 0.8, 0.99])
    func resumeFromHalfQuickFinishesInOneSecond(_ progress: Float) throws {
        var d = try Driver.crossfadePaused(at: progress)
        let effects = try d.send(.resume)
        #expect(effects == [.resumeOutput, .quickFinishCrossfade(duration: 1)])
        #expect(d.state == .crossfading(fromTrack: Fixture.stage1, toTrack: Fixture.stage2, progress: progress, canQuickFinish: true))
        try d.send(.crossfadeCompleted)
        #expect(d.state == .playing(track: Fixture.stage2))
    }

    @Test func resumeAtFullProgressGoesStraightToPlaying() throws {
        var d = try Driver.crossfadePaused(at: 1.0)
        let effects = try d.send(.resume)
        #expect(effects == [.abortCrossfade(keep: .b), .resumeOutput])
        #expect(d.state == .playing(track: Fixture.stage2))
        // The incoming deck is now the active one: its position reports drive the machine.
        try d.send(.positionChanged(.b, position: 3))
        #expect(d.machine.currentPosition == 3)
    }

    @Test func canQuickFinishFollowsProgress() throws {
        var d = try Driver.crossfading(at: 0.1)
        for p: Float in [0.2, 0.49, 0.5, 0.51, 0.9] {
            try d.send(.crossfadeProgress(p, fromPosition: 101, toPosition: 1))
            guard case .crossfading(_, _, let got, let quick) = d.state else { Issue.record("left crossfading"); return }
            #expect(abs(got - p) < 0.001)
            #expect(quick == (p >= 0.5))
        }
    }

    @Test func stopDuringPausedCrossfadeGoesIdle() throws {
        var d = try Driver.crossfadePaused(at: 0.4)
        let effects = try d.send(.stop)
        #expect(d.state == .idle)
        #expect(effects.contains(.unload(.a)) && effects.contains(.unload(.b)))
    }

    @Test func skipDuringCrossfadeQuickFinishes() throws {
        var d = try Driver.crossfading(at: 0.2)
        #expect(try d.send(.skip) == [.quickFinishCrossfade(duration: 1)])
        #expect(d.state.name == .crossfading)
    }
}
