import Foundation
import PlayerCore
import PresentationFixtures
import Presentation
import Testing

@Suite struct CountdownTests {
    let scheduled = PlayerState.reconnecting(
        track: Samples.station.track, attempt: 2, maxAttempts: 8, nextRetryAt: PlayerTime(seconds: 102.1),
        cause: Samples.network)

    @Test func countdownRoundsUpInEnglish() throws {
        let view = NowPlayingViewState(state: scheduled, context: Samples.context(.english))
        let reconnect = try #require(view.reconnect)
        #expect(reconnect.text == "Reconnecting in 3 s (attempt 2 of 8)")
        #expect(view.statusText == "Reconnecting in 3 s (attempt 2 of 8)")
        #expect(reconnect.secondsRemaining == 3)
        #expect(reconnect.attempt == 2)
        #expect(reconnect.maxAttempts == 8)
        #expect(!reconnect.isWaitingForNetwork)
        #expect(reconnect.causeMessage == Samples.network.message(in: .english))
    }

    @Test func countdownInRussian() throws {
        let reconnect = try #require(NowPlayingViewState(state: scheduled, context: Samples.context(.russian)).reconnect)
        #expect(reconnect.text == "Переподключение через 3 с (попытка 2 из 8)")
    }

    @Test func countdownFollowsNow() throws {
        var context = Samples.context(.english)
        context.now = PlayerTime(seconds: 101.5)
        let reconnect = try #require(NowPlayingViewState(state: scheduled, context: context).reconnect)
        #expect(reconnect.secondsRemaining == 1)
        #expect(reconnect.text == "Reconnecting in 1 s (attempt 2 of 8)")
    }

    @Test func withoutScheduleItWaitsForNetwork() throws {
        let state = PlayerState.reconnecting(
            track: Samples.station.track, attempt: 2, maxAttempts: 8, nextRetryAt: nil, cause: PlaybackError(.offline))
        let en = try #require(NowPlayingViewState(state: state, context: Samples.context(.english)).reconnect)
        #expect(en.text.hasPrefix("Waiting for network"))
        #expect(en.isWaitingForNetwork)
        #expect(en.secondsRemaining == nil)
        let ru = try #require(NowPlayingViewState(state: state, context: Samples.context(.russian)).reconnect)
        #expect(ru.text.hasPrefix("Ожидание сети"))
    }
}

@Suite struct CrossfadeViewTests {
    let state = PlayerState.crossfading(fromTrack: Samples.song, toTrack: Samples.next, progress: 0.47, canQuickFinish: false)

    @Test func crossfadingAt47PercentDefaultsToEqualPower() throws {
        let cf = try #require(NowPlayingViewState(state: state, context: Samples.context(.english)).crossfade)
        #expect(cf.text == "Transitioning to Song B (47%)")
        #expect(cf.percent == 47)
        #expect(cf.curve == .equalPower)
        let expected = FadeCurve.equalPower.gains(at: 0.47)
        #expect(abs(cf.outgoingGain - expected.outgoing) < 1e-9)
        #expect(abs(cf.incomingGain - expected.incoming) < 1e-9)
        #expect(abs(cf.progress - 0.47) < 1e-9)
        #expect(!cf.isPaused)
        #expect(cf.fromTitle == "Song A")
        #expect(cf.toTitle == "Song B")
    }

    @Test func crossfadingInRussian() throws {
        let cf = try #require(NowPlayingViewState(state: state, context: Samples.context(.russian)).crossfade)
        #expect(cf.text == "Переход к «Song B» (47%)")
        #expect(cf.outgoingLabel == "Уходящий")
    }

    @Test func givenCurveIsUsed() throws {
        let cf = try #require(
            NowPlayingViewState(state: state, context: Samples.context(.english), crossfadeCurve: .linear).crossfade)
        #expect(cf.curve == .linear)
        #expect(abs(cf.outgoingGain - 0.53) < 1e-9)
        #expect(abs(cf.incomingGain - 0.47) < 1e-9)
    }

    @Test(arguments: [
        (Float(0.3), PlayerState.ResumeStrategy.continueFromProgress, "resuming"),
        (Float(0.8), PlayerState.ResumeStrategy.quickFinish, "finishing soon"),
    ])
    func pausedCrossfadeUsesTheSnapshotCurve(_ progress: Float, _ strategy: PlayerState.ResumeStrategy, _ how: String)
        throws
    {
        let paused = PlayerState.crossfadePaused(
            fromTrack: Samples.song, toTrack: Samples.next, progress: progress, resumeStrategy: strategy,
            savedState: Samples.snapshot(progress, curve: .raisedCosine))
        let cf = try #require(
            NowPlayingViewState(state: paused, context: Samples.context(.english), crossfadeCurve: .linear).crossfade)
        #expect(cf.isPaused)
        #expect(cf.resumeStrategy == strategy)
        #expect(cf.curve == .raisedCosine)
        let pct = Int((progress * 100).rounded(.down))
        #expect(cf.text == "Paused during transition (\(pct)%, \(how))")
        let expected = FadeCurve.raisedCosine.gains(at: Double(pct) / 100)
        #expect(abs(cf.outgoingGain - expected.outgoing) < 1e-9)
        #expect(abs(cf.incomingGain - expected.incoming) < 1e-9)
    }
}
