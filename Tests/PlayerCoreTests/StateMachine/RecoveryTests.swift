import Foundation
import PlayerCore
import Presentation
import Testing

/// Dropped streams reconnect with a visible countdown; a live stream never "finishes" because its
/// connection ended; the user's pause survives; offline time spends no attempts; output loss holds.
@Suite("Reconnect and output recovery")
struct RecoveryTests {
    let dropped = PlaybackError(.connectionLost)

    @Test func liveStreamEndIsADropNeverFinished() throws {
        var d = try Driver.live()
        try d.send(.trackEnded(.a, at: PlayerTime(seconds: 10)))
        guard case .reconnecting(_, 1, let max, let at?, let cause) = d.state else {
            Issue.record("expected reconnecting, got \(d.state)")
            return
        }
        #expect(cause.code == .connectionLost)
        #expect(max == BackoffPolicy.reconnect.maxAttempts)
        // Attempt 1 waits 1 s +-20 %.
        #expect(at.seconds >= 10 + 0.8 && at.seconds <= 10 + 1.2)
        #expect(d.state.statusText(in: .english, now: PlayerTime(seconds: 10)).hasPrefix("Reconnecting in 2 s (attempt 1 of") || d.state.statusText(in: .english, now: PlayerTime(seconds: 10)).hasPrefix("Reconnecting in 1 s (attempt 1 of"))
        #expect(!d.names.contains(.finished))
    }

    @Test func aLiveAddressHoldingARecordingBecomesEpisodeLikeAndItsEndIsAFinish() throws {
        var d = Driver(Fixture.config())
        try d.send(.play(PlayRequest(items: [QueueItem(track: Fixture.live())])!))
        let load = d.lastLoad!
        // A late or foreign fact changes nothing.
        try d.send(.loadIsRecording(LoadID(load.value + 1)))
        #expect(d.state.currentTrack?.kind == .liveStream)
        try d.send(.loadIsRecording(load))
        #expect(d.state.currentTrack?.kind == .episode)
        #expect(d.state.currentTrack?.id == Fixture.live().id)
        try d.send(.loaded(load, duration: 600))
        #expect(d.state.allowedActions.contains(.seek))
        try d.send(.trackEnded(.a, at: PlayerTime(seconds: 600)))
        #expect(d.state == .finished)
        #expect(!d.names.contains(.reconnecting))
    }

    @Test func reconnectSucceedsAndIsReportedAsAutomaticRecovery() throws {
        var d = try Driver.reconnecting()
        let due = d.lastScheduledRetry!
        #expect(due.attempt == 1)
        let attempt = try d.send(.timerFired(.retry(attempt: 1), at: due.at))
        #expect(attempt.withoutTimers == [.load(d.lastLoad!, deck: .a, track: Fixture.live(), from: 0)])
        #expect(d.state == .preparing(track: Fixture.live()))
        let effects = try d.send(.loaded(d.lastLoad!, duration: nil))
        #expect(effects.withoutTimers == [.start(.a), .recovered(from: dropped, by: .automaticRetry)])
        #expect(d.names.suffix(4) == [.playing, .reconnecting, .preparing, .playing])
    }

    @Test func backoffGrowsAndGivesUpIntoRecoverableFailure() throws {
        var d = try Driver.reconnecting()
        var previousDelay = 0.0
        var now = 10.0
        let max = BackoffPolicy.reconnect.maxAttempts
        for attempt in 1...max {
            guard case .reconnecting(_, let a, let m, let at?, _) = d.state else {
                Issue.record("attempt \(attempt): expected reconnecting, got \(d.state)")
                return
            }
            #expect(a == attempt && m == max)
            let delay = at.seconds - now
            let nominal = BackoffPolicy.reconnect.nominalDelay(forRetry: attempt)
            #expect(delay >= nominal * 0.8 - 1e-9 && delay <= Swift.min(30 * 1.2, nominal * 1.2) + 1e-9, "attempt \(attempt) waited \(delay)")
            if attempt > 1 && nominal < 30 { #expect(delay > previousDelay * 0.8 / 1.2 * 1.6 - 1e-6 || delay > 0) }
            previousDelay = delay
            now = at.seconds
            try d.send(.timerFired(.retry(attempt: attempt), at: at))
            try d.send(.loadFailed(d.lastLoad!, PlaybackError(.connectionFailed), at: at))
        }
        guard case .failed(let error, true, let point?) = d.state else {
            Issue.record("expected failed(recoverable), got \(d.state)")
            return
        }
        #expect(error.code == .connectionFailed)
        #expect(point.track.id == Fixture.live().id)
        #expect(d.state.allows(.retry))
    }

    @Test func givesUpAfterTwoMinutesEvenWithAttemptsLeft() throws {
        var d = try Driver.reconnecting()
        let due = d.lastScheduledRetry!
        try d.send(.timerFired(.retry(attempt: 1), at: due.at))
        try d.send(.loadFailed(d.lastLoad!, PlaybackError(.connectionTimeout), at: PlayerTime(seconds: 10 + 121)))
        #expect(d.state.name == .failed)
    }

    @Test func finalErrorDuringReconnectIsNotRetriedBlindly() throws {
        var d = try Driver.reconnecting()
        try d.send(.timerFired(.retry(attempt: 1), at: d.lastScheduledRetry!.at))
        try d.send(.loadFailed(d.lastLoad!, PlaybackError(.httpUnauthorized, httpStatus: 401), at: PlayerTime(seconds: 12)))
        guard case .failed(let error, let recoverable, _) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(error.httpStatus == 401)
        #expect(!recoverable)
    }

    @Test func retryAfterIsHonouredWithoutExtraAttempts() throws {
        var d = try Driver.live()
        let busy = PlaybackError(.httpRetryable, httpStatus: 503, retryAfter: .seconds(20))
        try d.send(.errorOccurred(.a, busy, at: PlayerTime(seconds: 100)))
        guard case .reconnecting(_, 1, _, let at?, _) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(at.seconds >= 120)
    }

    @Test func offlineSpendsNoAttemptsAndOnlineReconnectsAtOnce() throws {
        var d = try Driver.reconnecting()
        #expect(try d.send(.connectivityChanged(online: false, at: PlayerTime(seconds: 10.5))) == [.cancelTimer(.retry)])
        guard case .reconnecting(_, 1, _, nil, _) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(d.state.statusText(in: .english).hasPrefix("Waiting for network (attempt 1 of"))
        // A timer that fires anyway is ignored: no attempt while offline.
        #expect(try d.send(.timerFired(.retry(attempt: 1), at: PlayerTime(seconds: 11))).isEmpty)
        // Three minutes offline do not count towards giving up.
        let back = try d.send(.connectivityChanged(online: true, at: PlayerTime(seconds: 190)))
        #expect(back.withoutTimers.count == 1)
        #expect(d.state == .preparing(track: Fixture.live()))
        try d.send(.loadFailed(d.lastLoad!, PlaybackError(.connectionFailed), at: PlayerTime(seconds: 191)))
        guard case .reconnecting(_, 2, _, _?, _) = d.state else { Issue.record("got \(d.state)"); return }
    }

    @Test func dropWhileOfflineWaitsForNetwork() throws {
        var d = try Driver.live()
        try d.send(.connectivityChanged(online: false, at: PlayerTime(seconds: 1)))
        let effects = try d.send(.errorOccurred(.a, PlaybackError(.offline), at: PlayerTime(seconds: 2)))
        #expect(!effects.contains { if case .scheduleTimer(.retry, _) = $0 { true } else { false } })
        guard case .reconnecting(_, 1, _, nil, _) = d.state else { Issue.record("got \(d.state)"); return }
    }

    @Test func retryNowAndCancelDuringCountdown() throws {
        var d = try Driver.reconnecting()
        let now = try d.send(.retryNow)
        #expect(now.contains(.cancelTimer(.retry)))
        #expect(d.state == .preparing(track: Fixture.live()))

        var e = try Driver.reconnecting()
        try e.send(.cancelRetry)
        guard case .failed(let error, true, let point?) = e.state else { Issue.record("got \(e.state)"); return }
        #expect(error == dropped)
        #expect(point.position == 0)
    }

    /// A live stream playing, then dropped at 1 s, with a reconnect budget of `budget` tokens.
    func liveDropped(budget: Double, refillPerSecond: Double) throws -> (Driver, PlayerStateMachine.Configuration) {
        var config = Fixture.config()
        config.reconnectBudgetCapacity = budget
        config.reconnectBudgetRefillPerSecond = refillPerSecond
        var d = Driver(config)
        try d.send(.play(Fixture.request(Fixture.live())), at: 0)
        try d.send(.loaded(d.lastLoad!, duration: nil))
        try d.send(.errorOccurred(.a, dropped, at: PlayerTime(seconds: 1)))
        return (d, config)
    }

    @Test func aSpentReconnectBudgetEndsTheRetriesWithTheirCause() throws {
        var (d, config) = try liveDropped(budget: 2, refillPerSecond: 0)
        let refused = PlaybackError(.connectionFailed)
        for attempt in 1...2 {
            guard case .reconnecting(_, attempt, _, _?, _) = d.state else { Issue.record("attempt \(attempt): \(d.state)"); return }
            let due = try #require(d.lastScheduledRetry)
            try d.send(.timerFired(.retry(attempt: attempt), at: due.at))
            try d.send(.loadFailed(d.lastLoad!, refused, at: due.at))
        }
        // Two reconnects spent the budget: the third is not scheduled, though the policy allows it.
        #expect(config.reconnectPolicy.maxAttempts > 2)
        guard case .failed(let error, true, _) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(error == refused)
    }

    @Test func theReconnectBudgetRefillsOverTime() throws {
        var (d, _) = try liveDropped(budget: 1, refillPerSecond: 0.1)
        let due = try #require(d.lastScheduledRetry)
        try d.send(.timerFired(.retry(attempt: 1), at: due.at))
        try d.send(.loaded(d.lastLoad!, duration: nil))
        #expect(d.state.name == .playing)
        // Ten seconds later one token has come back: the next drop reconnects again.
        try d.send(.errorOccurred(.a, dropped, at: PlayerTime(seconds: 1 + 10.5)))
        #expect(d.state.name == .reconnecting)
    }

    @Test func aDropWhileTheDeckStillSoundsWaitsForItsAudioToRunOut() throws {
        var d = try Driver.live()
        // The source says the connection broke; what the deck holds still plays, and the stream
        // is asked for again meanwhile (in the background: the state stays playing).
        #expect(try d.send(.streamDropped(.a, cause: dropped, at: PlayerTime(seconds: 5))).withoutTimers == [
            .reopenConnection(.a), .reconnectingInBackground(true),
        ])
        #expect(d.state == .playing(track: Fixture.live()))
        // The deck reports the drop once its audio ran out before the stream was back: the
        // visible reconnect starts then, and the background flag is over.
        let effects = try d.send(.errorOccurred(.a, dropped, at: PlayerTime(seconds: 8)))
        #expect(effects.first == .reconnectingInBackground(false))
        guard case .reconnecting(_, 1, _, let at?, let cause) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(cause == dropped)
        #expect(at.seconds > 8)
    }

    @Test func aDropWhileBufferingReconnectsAtOnce() throws {
        var d = try Driver.buffering()
        let effects = try d.send(.streamDropped(.a, cause: dropped, at: PlayerTime(seconds: 5)))
        #expect(effects.first == .unload(.a))
        guard case .reconnecting(_, 1, _, _?, let cause) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(cause == dropped)
    }

    @Test func pausedStreamThatDropsStaysPausedAndReconnectsOnResume() throws {
        var d = try Driver.live()
        try d.send(.pause)
        #expect(try d.send(.streamDropped(.a, cause: dropped, at: PlayerTime(seconds: 5))) == [.unload(.a)])
        #expect(d.state == .paused(track: Fixture.live(), position: 0))
        let resumed = try d.send(.resume)
        #expect(resumed.withoutTimers.last == .load(d.lastLoad!, deck: .a, track: Fixture.live(), from: 0))
        #expect(d.state == .preparing(track: Fixture.live()))
        try d.send(.loaded(d.lastLoad!, duration: nil))
        #expect(d.state == .playing(track: Fixture.live()))
    }

    @Test func pauseDuringReconnectKeepsTheIntent() throws {
        var d = try Driver.reconnecting()
        #expect(try d.send(.pause) == [.cancelTimer(.retry)])
        #expect(d.state == .paused(track: Fixture.live(), position: 0))
        // The old timer firing after the pause changes nothing.
        #expect(try d.send(.timerFired(.retry(attempt: 1), at: PlayerTime(seconds: 20))).isEmpty)
        #expect(d.state.name == .paused)
        try d.send(.resume)
        #expect(d.state.name == .preparing)
    }

    @Test func episodeReconnectResumesAtTheSamePosition() throws {
        var d = try Driver.playing(Fixture.episode("talk"))
        try d.send(.positionChanged(.a, position: 1234.5))
        try d.send(.errorOccurred(.a, dropped, at: PlayerTime(seconds: 50)))
        try d.send(.timerFired(.retry(attempt: 1), at: d.lastScheduledRetry!.at))
        #expect(d.effects.withoutTimers.last == .load(d.lastLoad!, deck: .a, track: Fixture.episode("talk"), from: 1234.5))
    }

    @Test func outputLostHoldsAndResumesWhenBack() throws {
        var d = try Driver.playing(Fixture.stage1)
        try d.send(.positionChanged(.a, position: 30))
        let lost = try d.send(.outputLost(at: PlayerTime(seconds: 30)))
        #expect(lost.first == .pauseOutput)
        guard case .reconnecting(_, 1, _, let at?, let cause) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(cause.code == .audioOutputLost)
        #expect(try d.send(.timerFired(.retry(attempt: 1), at: at)) == [.reopenOutput])
        #expect(try d.send(.outputLost(at: at)).contains(.scheduleTimer(.retry(attempt: 2), at: d.lastScheduledRetry!.at)))
        try d.send(.timerFired(.retry(attempt: 2), at: d.lastScheduledRetry!.at))
        let back = try d.send(.outputRestored)
        #expect(back == [.resumeOutput, .recovered(from: PlaybackError(.audioOutputLost), by: .automaticRetry)])
        #expect(d.state == .playing(track: Fixture.stage1))
        #expect(d.machine.currentPosition == 30)
    }

    @Test func outputLostWhilePausedReopensOnResume() throws {
        var d = try Driver.paused()
        #expect(try d.send(.outputLost(at: .zero)).isEmpty)
        #expect(d.state.name == .paused)
        #expect(try d.send(.resume) == [.reopenOutput, .resumeOutput])
    }

    @Test func failedEpisodeRetryResumesFromSavedPosition() throws {
        // A network failure keeps episode, position and duration; Retry resumes there.
        var d = try Driver.playing(Fixture.episode("ep"))
        try d.send(.positionChanged(.a, position: 754))
        try d.send(.errorOccurred(.a, PlaybackError(.httpNotFound, httpStatus: 404), at: .zero))
        guard case .failed(_, true, let point?) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(point.position == 754 && point.duration == 3600 && point.track.id == "episode:ep")
        #expect(d.effects.contains(.persistPosition(point)))
        try d.send(.retry)
        #expect(d.effects.withoutTimers.last == .load(d.lastLoad!, deck: .a, track: Fixture.episode("ep"), from: 754))
        let effects = try d.send(.loaded(d.lastLoad!, duration: 3600))
        #expect(effects.contains(.recovered(from: PlaybackError(.httpNotFound, httpStatus: 404), by: .manualRetry)))
        #expect(d.state == .playing(track: Fixture.episode("ep")))
    }

    @Test func missingAudioURLFailsWithoutRetry() throws {
        // An episode without an audio URL fails at once: not recoverable, no resume point.
        let episode = Episode(id: "e1", title: "No enclosure", podcastTitle: "Show", audioURL: nil)
        var d = Driver()
        do {
            _ = try episode.track()
            Issue.record("an episode without audio produced a track")
        } catch {
            try d.send(.cannotPlay(error))
        }
        guard case .failed(let error, false, nil) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(error.code == .missingAudioURL)
        #expect(!d.state.allows(.retry))
        #expect(d.state.allows(.play))
    }

    @Test func sameSeedSameTimeline() throws {
        func timeline(seed: UInt64) throws -> [Double] {
            var d = Driver(Fixture.config(), seed: seed)
            try d.send(.play(Fixture.request(Fixture.live())))
            try d.send(.loaded(d.lastLoad!, duration: nil))
            try d.send(.errorOccurred(.a, PlaybackError(.connectionLost), at: .zero))
            var times: [Double] = []
            for attempt in 1...4 {
                let due = d.lastScheduledRetry!
                times.append(due.at.seconds)
                try d.send(.timerFired(.retry(attempt: attempt), at: due.at))
                try d.send(.loadFailed(d.lastLoad!, PlaybackError(.connectionFailed), at: due.at))
            }
            return times
        }
        #expect(try timeline(seed: 7) == timeline(seed: 7))
        #expect(try timeline(seed: 7) != timeline(seed: 8))
    }
}
