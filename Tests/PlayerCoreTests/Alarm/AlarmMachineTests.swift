import Foundation
import PlayerCore
import Testing

/// The alarm's decisions on injected clocks: when it is due, the fade-in, the 20 s the source
/// has to be heard, silence against sound, the fallback, a missed alarm after a suspend, and the
/// listener's hand.
@Suite struct AlarmMachineTests {
    typealias D = AlarmMachineDriver
    static let connectionFailed = PlaybackError(.connectionFailed)

    // MARK: Waiting

    @Test func itLooksAtTheWallClockInShortSleepsAndSoundsAtItsTime() {
        var d = D(alarm: D.alarm(), now: D.monday("06:58:55"))
        d.send(.start)
        #expect(d.notices == [.waiting(due: D.monday("07:00:00"))])
        // Never one long sleep on the monotonic clock: at most ten seconds, then the last stretch.
        #expect(d.timers[.check] == PlayerTime(seconds: 10))
        var sleeps: [Double] = []
        while d.isWaiting, let at = d.timers[.check] {
            sleeps.append(at.since(d.clock))
            d.fire(.check)
        }
        #expect(sleeps == [10, 10, 10, 10, 10, 10, 5])
        #expect(d.wall == D.monday("07:00:00"))
        #expect(d.effects.suffix(2) == [.tell(.sounding(due: D.monday("07:00:00"))), .open])
    }

    @Test func aWakeUpAHairEarlyCountsAsOnTime() {
        var d = D(alarm: D.alarm(), now: D.monday("06:59:59"))
        d.send(.start)
        d.wall = D.monday("06:59:59").addingTimeInterval(0.9995)
        d.send(.timerFired(.check))
        #expect(d.effects.last == .open)
    }

    @Test func afterASuspendPastTheGraceItIsMissedNotPlayedLate() throws {
        var d = D(alarm: D.alarm(), now: D.monday("06:00:00"))
        d.send(.start)
        // The machine sleeps; the monotonic clock stops with it while the wall clock goes on.
        d.wall = D.monday("09:14:00")
        d.clock = d.clock + 10
        d.send(.timerFired(.check))
        guard case .missed(let due, let noticed, let error) = d.notices.dropFirst().first else {
            Issue.record("not missed: \(d.notices)")
            return
        }
        #expect(due == D.monday("07:00:00"))
        #expect(noticed == D.monday("09:14:00"))
        #expect(error.code == .alarmMissed)
        #expect(!d.effects.contains(.open))
        // It waits for tomorrow's.
        #expect(d.notices.last == .waiting(due: D.monday("07:00:00").addingTimeInterval(86_400)))
        #expect(d.isWaiting)
    }

    @Test func withinTheGraceALateAlarmStillSounds() {
        var d = D(alarm: D.alarm(), now: D.monday("06:00:00"))
        d.send(.start)
        d.wall = D.monday("07:09:59")
        d.send(.timerFired(.check))
        #expect(d.effects.last == .open)
        var late = D(alarm: D.alarm(), now: D.monday("06:00:00"))
        late.send(.start)
        late.wall = D.monday("07:10:01")
        late.send(.timerFired(.check))
        #expect(!late.effects.contains(.open))
    }

    @Test func noPlayerMeansTheAlarmIsToldAsFailedAndWaitsForItsNextTime() {
        var d = D(alarm: D.alarm(), now: D.monday("06:59:50"))
        d.send(.start)
        d.waitUntilDue()
        d.send(.playerUnavailable(PlaybackError(.audioOutputUnavailable)))
        #expect(d.notices.contains(.failed(due: D.monday("07:00:00"), PlaybackError(.audioOutputUnavailable))))
        #expect(d.notices.last == .waiting(due: D.monday("07:00:00").addingTimeInterval(86_400)))
    }

    // MARK: Fading in

    @Test func itStartsFromSilenceAndRisesInStepsToTheListenersVolume() {
        var d = D(alarm: D.alarm(fadeIn: 60), now: D.monday("06:59:50"))
        d.send(.start)
        d.waitUntilDue()
        let opened = d.send(.opened(listenerVolume: Volume(0.8)))
        // Silence is set before the source is asked for: nothing sounds at full volume first.
        #expect(opened.prefix(2) == [.setVolume(Volume(0)), .play(.source)])
        #expect(opened.contains(.measure(true)))
        #expect(d.timers[.deadline] == d.clock + 20)
        var steps = 0
        while d.timers[.fadeStep] != nil {
            d.fire(.fadeStep)
            steps += 1
        }
        #expect(steps == 120)
        let volumes = d.volumesSet
        #expect(volumes.first == Volume(0))
        #expect(volumes.last == Volume(0.8))
        #expect(zip(volumes, volumes.dropFirst()).allSatisfy { $0.0 < $0.1 })
        // Halfway through, halfway up: linear in amplitude.
        #expect(volumes.contains(Volume(0.4)))
    }

    @Test func aVolumeOfItsOwnIsTheTargetAndNoFadeSetsItAtOnce() {
        var d = D(alarm: D.alarm(fadeIn: 0, volume: Volume(0.3)), now: D.monday("06:59:50"))
        d.send(.start)
        d.waitUntilDue()
        let opened = d.send(.opened(listenerVolume: .full))
        #expect(opened.prefix(2) == [.setVolume(Volume(0.3)), .play(.source)])
        #expect(d.timers[.fadeStep] == nil)
    }

    @Test func theListenersOwnVolumeStopsTheFadeAndIsKept() {
        var d = D(alarm: D.alarm(), now: D.monday("06:59:50"))
        d.sound()
        d.send(.playerState(.playing(track: D.own)))
        for _ in 0..<10 { d.fire(.fadeStep) }
        // The player tells the volumes the machine set, in order: those are not the listener's.
        for volume in d.volumesSet { d.send(.volume(volume)) }
        #expect(d.timers[.fadeStep] != nil)
        let before = d.volumesSet.count
        d.send(.volume(Volume(0.35)))
        #expect(d.volumesSet.count == before, "the fade must not undo the listener's volume")
        #expect(d.timers[.fadeStep] == nil)
        #expect(d.isWaiting)
    }

    @Test func thePlayersOwnWordOfItsStartingVolumeIsNotTheListeners() {
        var d = D(alarm: D.alarm(), now: D.monday("06:59:50"))
        d.sound(listenerVolume: Volume(0.6))
        // A player opened for the alarm tells its volume as it starts, after the machine set 0.
        d.send(.volume(Volume(0.6)))
        d.send(.volume(Volume(0)))
        d.fire(.fadeStep)
        #expect(d.timers[.fadeStep] != nil)
        #expect(!d.isWaiting)
        // Once the player has told a volume the machine set, another is the listener's.
        d.send(.volume(Volume(0.6)))
        #expect(d.isWaiting)
    }

    @Test func stoppedMidFadeTheListenersVolumeComesBack() {
        var d = D(alarm: D.alarm(), now: D.monday("06:59:50"))
        d.sound(listenerVolume: Volume(0.7))
        d.send(.playerState(.preparing(track: D.own)))
        d.send(.playerState(.playing(track: D.own)))
        for _ in 0..<20 { d.fire(.fadeStep) }
        d.send(.playerState(.idle))
        #expect(d.volumesSet.last == Volume(0.7))
        #expect(d.timers.isEmpty == false && d.timers[.fadeStep] == nil && d.timers[.deadline] == nil)
        #expect(d.notices.last == .waiting(due: D.monday("07:00:00").addingTimeInterval(86_400)))
    }

    @Test func cancelledWhileSoundingTheVolumeComesBackAndNothingMoreIsDecided() {
        var d = D(alarm: D.alarm(), now: D.monday("06:59:50"))
        d.sound(listenerVolume: Volume(0.5))
        d.fire(.fadeStep)
        d.send(.cancel)
        #expect(d.volumesSet.last == Volume(0.5))
        #expect(d.notices.last == .cancelled)
        #expect(d.send(.timerFired(.deadline)).isEmpty)
        #expect(d.send(.playerState(.failed(error: Self.connectionFailed, recoverable: true, resumePoint: nil))).isEmpty)
    }

    // MARK: Heard or not

    @Test func aSourceHeardForASecondCancelsTheDeadline() {
        var d = D(alarm: D.alarm(), now: D.monday("06:59:50"))
        d.sound()
        d.send(.playerState(.playing(track: D.own)))
        // Let the fade reach 10 % (-20 dB): the output's -38 LUFS is a -18 LUFS source.
        while d.volumesSet.last.map({ $0 < Volume(0.1) }) ?? true { d.fire(.fadeStep) }
        for _ in 0..<12 {
            d.pass(0.1)
            d.send(.outputLoudness(-38))
        }
        #expect(d.notices.contains(.sounded(due: D.monday("07:00:00"))))
        #expect(d.timers[.deadline] == nil)
        #expect(d.effects.contains(.measure(false)))
        while d.timers[.fadeStep] != nil { d.fire(.fadeStep) }
        #expect(d.plays == [.source])
        #expect(d.isWaiting)
    }

    @Test func theVolumeTheMachineSetIsTakenOutOfWhatTheOutputMeasures() {
        // At 1 % (-40 dB), -55 LUFS at the output is a -15 LUFS source: loud, not silent.
        var d = D(alarm: D.alarm(fadeIn: 100), now: D.monday("06:59:50"))
        d.sound()
        d.send(.playerState(.playing(track: D.own)))
        while d.volumesSet.last != Volume(0.01) { d.fire(.fadeStep) }
        for _ in 0..<12 {
            d.pass(0.1)
            d.send(.outputLoudness(-55))
        }
        #expect(d.notices.contains(.sounded(due: D.monday("07:00:00"))))
    }

    @Test func whileTheVolumeIsStillZeroTheOutputSaysNothing() {
        var d = D(alarm: D.alarm(fadeIn: 300), now: D.monday("06:59:50"))
        d.sound()
        d.send(.playerState(.playing(track: D.own)))
        for _ in 0..<20 {
            d.pass(0.1)
            d.send(.outputLoudness(-20))
        }
        #expect(!d.notices.contains(.sounded(due: D.monday("07:00:00"))))
    }

    @Test func aSilentSourceIsReplacedByTheToneAtTheDeadline() {
        var d = D(alarm: D.alarm(), now: D.monday("06:59:50"))
        d.sound()
        let start = d.clock
        d.send(.playerState(.playing(track: D.own)))
        // Silence: nothing measurable, or far under -40 LUFS once the volume is taken out.
        for _ in 0..<39 {
            d.fire(.fadeStep)
            d.send(.outputLoudness((d.volumesSet.last?.level ?? 0) > 0 ? -95 : nil))
        }
        #expect(d.plays == [.source])
        d.fire(.deadline)
        #expect(abs(d.clock.since(start) - 20) < 1e-9)
        #expect(d.fellBackWith?.code == .sourceSilent)
        #expect(d.plays == [.source, .fallback])
        // The fade goes on over the tone.
        #expect(d.timers[.fadeStep] != nil)
    }

    @Test func aClickIsNotAnAlarm() {
        var d = D(alarm: D.alarm(fadeIn: 0), now: D.monday("06:59:50"))
        d.sound()
        d.send(.playerState(.playing(track: D.own)))
        // 0.4 s loud, then silence: under the second it must last.
        for loudness in [-20.0, -20, -20, -20, -90, -90] {
            d.pass(0.1)
            d.send(.outputLoudness(loudness))
        }
        #expect(!d.notices.contains(.sounded(due: D.monday("07:00:00"))))
        d.fire(.deadline)
        #expect(d.fellBackWith?.code == .sourceSilent)
    }

    @Test func aDeadStationFallsBackAtTheDeadlineWithItsCause() {
        var d = D(alarm: D.alarm(), now: D.monday("06:59:50"))
        d.sound()
        d.send(.playerState(.preparing(track: D.own)))
        d.send(.playerState(.reconnecting(track: D.own, attempt: 1, maxAttempts: 10, nextRetryAt: nil, cause: Self.connectionFailed)))
        d.send(.playerState(.preparing(track: D.own)))
        // Later causes follow from the first (the host's breaker opens after repeated failures).
        let open = PlaybackError.circuitOpen(host: "radio.test", retryIn: 30)
        d.send(.playerState(.reconnecting(track: D.own, attempt: 6, maxAttempts: 10, nextRetryAt: nil, cause: open)))
        // Reconnecting is not failing: the player may still reach it within the 20 s.
        #expect(d.plays == [.source])
        d.fire(.deadline)
        #expect(d.fellBackWith == Self.connectionFailed)
        #expect(d.plays == [.source, .fallback])
    }

    @Test func aSourceStillOpeningAtTheDeadlineIsToldAsLoadingTooLong() {
        var d = D(alarm: D.alarm(), now: D.monday("06:59:50"))
        d.sound()
        d.send(.playerState(.buffering(track: D.own, progress: 0.2, reason: .initial)))
        d.fire(.deadline)
        #expect(d.fellBackWith?.code == .bufferingTimeout)
    }

    @Test func aFailureFallsBackAtOnce() {
        var d = D(alarm: D.alarm(), now: D.monday("06:59:50"))
        d.sound()
        d.send(.playerState(.preparing(track: D.own)))
        let notFound = PlaybackError(.httpNotFound, httpStatus: 404)
        d.send(.playerState(.failed(error: notFound, recoverable: true, resumePoint: ResumePoint(track: D.own, position: 0))))
        #expect(d.fellBackWith == notFound)
        #expect(d.timers[.deadline] == nil)
        // And a source the library no longer has, before it reaches the player.
        var gone = D(alarm: D.alarm(), now: D.monday("06:59:50"))
        gone.waitUntilDue()
        gone.send(.opened(listenerVolume: .full))
        gone.send(.sourceUnavailable(PlaybackError(.notInLibrary)))
        #expect(gone.fellBackWith?.code == .notInLibrary)
        #expect(gone.plays == [.source, .fallback])
    }

    @Test func statesOfTheItemItReplacedAreNotTheAlarms() {
        var d = D(alarm: D.alarm(), now: D.monday("06:59:50"))
        d.sound()
        // The music playing at seven fades out and fails or stops: not the alarm's business.
        d.send(.playerState(.fadingOut(track: D.other, targetDuration: 0.5)))
        d.send(.playerState(.failed(error: Self.connectionFailed, recoverable: true, resumePoint: ResumePoint(track: D.other, position: 3))))
        d.send(.playerState(.idle))
        #expect(d.plays == [.source])
        #expect(!d.isWaiting)
    }

    @Test func whenTheToneFailsTooItIsToldAndTheAlarmWaitsForItsNextTime() {
        var d = D(alarm: D.alarm(), now: D.monday("06:59:50"))
        d.sound()
        d.send(.sourceUnavailable(PlaybackError(.notInLibrary)))
        d.send(.playing(.fallback, trackIDs: [D.tone.id]))
        let broken = PlaybackError(.unsupportedFormat)
        d.send(.playerState(.failed(error: broken, recoverable: false, resumePoint: ResumePoint(track: D.tone, position: 0))))
        #expect(d.notices.contains(.failed(due: D.monday("07:00:00"), broken)))
        #expect(d.isWaiting)
    }

    @Test func theListenerChoosingSomethingElseEndsTheAlarmsPart() {
        var d = D(alarm: D.alarm(), now: D.monday("06:59:50"))
        d.sound()
        d.send(.playerState(.playing(track: D.own)))
        d.send(.playerState(.preparing(track: D.other)))
        #expect(d.isWaiting)
        #expect(d.volumesSet.last == .full)
    }

    @Test func pausedIsTheListenersHand() {
        var d = D(alarm: D.alarm(), now: D.monday("06:59:50"))
        d.sound()
        d.send(.playerState(.playing(track: D.own)))
        d.send(.playerState(.paused(track: D.own, position: 4)))
        #expect(d.isWaiting)
        #expect(d.timers[.deadline] == nil)
        #expect(d.send(.timerFired(.deadline)).isEmpty)
    }
}
