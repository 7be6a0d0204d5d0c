import Foundation
import PlayerCore
import Testing

/// The sleep timer as the machine keeps it: a countdown of listening time on the player's clock,
/// a timer effect for its deadline, and the fade when it runs out. Every instant is given, so
/// nothing here waits.
@Suite("Sleep timer")
struct SleepTimerTests {
    static func config(sleep: SleepRequest?) -> PlayerStateMachine.Configuration {
        var config = Fixture.config()
        config.sleep = sleep
        config.sleepFadeDuration = 10
        return config
    }

    static func sleepTimers(_ effects: [PlayerEffect]) -> [PlayerTimerEffect] {
        effects.compactMap { effect in
            switch effect {
            case .scheduleTimer(.sleep, let at): .scheduled(at.seconds)
            case .cancelTimer(.sleep): .cancelled
            default: nil
            }
        }
    }

    enum PlayerTimerEffect: Equatable { case scheduled(Double), cancelled }

    @Test func theCountdownRunsWhileSoundingFreezesWhilePausedAndEndsInTheSleepFade() throws {
        var d = Driver(Self.config(sleep: .after(60)))
        #expect(d.machine.sleepTimer?.runningSince == nil, "nothing sounds yet")
        try d.send(.play(Fixture.request(Fixture.episode("ep"))), at: 0)
        #expect(Self.sleepTimers(try d.send(.loaded(d.lastLoad!, duration: 3600), at: 1)) == [.scheduled(61)])
        try d.send(.positionChanged(.a, position: 20))
        #expect(Self.sleepTimers(try d.send(.pause, at: 21)) == [.cancelled])
        #expect(d.machine.sleepTimer?.remaining(at: PlayerTime(seconds: 500)) == 40, "frozen while paused")
        #expect(Self.sleepTimers(try d.send(.resume, at: 100)) == [.scheduled(140)])
        try d.send(.positionChanged(.a, position: 59))
        let fired = try d.send(.timerFired(.sleep, at: PlayerTime(seconds: 140)), at: 140)
        #expect(d.state == .fadingOut(track: Fixture.episode("ep"), targetDuration: 10))
        #expect(fired.contains(.fadeOut(duration: 10)))
        // The episode's place is saved where the fade began.
        #expect(fired.contains { if case .persistPosition(let point) = $0 { point.position == 59 } else { false } }, "\(fired)")
        #expect(fired.contains(.sleepTimerChanged(nil)))
        try d.send(.fadeOutCompleted, at: 150)
        #expect(d.state.name == .finished)
    }

    @Test func aClipCountsFromItsFirstSoundAndEndsWithTheShortestFade() throws {
        var d = Driver(Self.config(sleep: nil))
        try d.send(.play(Fixture.request(Fixture.episode("ep"))), at: 0)
        // Set while the episode still loads: the clip's seconds are counted from its first sound.
        #expect(Self.sleepTimers(try d.send(.setSleepTimer(.clip(25)), at: 0)).isEmpty)
        #expect(Self.sleepTimers(try d.send(.loaded(d.lastLoad!, duration: 3600), at: 3)) == [.scheduled(28)])
        let fired = try d.send(.timerFired(.sleep, at: PlayerTime(seconds: 28)), at: 28)
        let shortest = PlayerStateMachine.Configuration.sleepFadeRange.lowerBound
        #expect(shortest < 10, "shorter than the configured sleep fade")
        #expect(fired.contains(.fadeOut(duration: shortest)), "\(fired)")
        #expect(d.state == .fadingOut(track: Fixture.episode("ep"), targetDuration: shortest))
        // Extending a clip keeps its short fade.
        var e = Driver(Self.config(sleep: nil))
        try e.send(.play(Fixture.request(Fixture.stage1)), at: 0)
        try e.send(.loaded(e.lastLoad!, duration: 600), at: 0)
        try e.send(.setSleepTimer(.clip(10)), at: 1)
        try e.send(.setSleepTimer(.extend(by: 5)), at: 2)
        #expect(e.machine.sleepTimer?.fade == shortest)
        #expect(e.machine.sleepTimer?.remaining(at: PlayerTime(seconds: 2)) == 14)
        // What replaces the clip plays on; a listener's own timer carries over a replacement.
        try e.send(.replace(.play(Fixture.request(Fixture.stage2))), at: 3)
        #expect(e.machine.sleepTimer == nil)
        try e.send(.setSleepTimer(.after(600)), at: 4)
        try e.send(.replace(.play(Fixture.request(Fixture.stage1))), at: 5)
        #expect(e.machine.sleepTimer?.isClip == false)
    }

    @Test func aReconnectFreezesTheCountdownAndKeepsIt() throws {
        var d = Driver(Self.config(sleep: .after(600)))
        try d.send(.play(PlayRequest(track: Fixture.live())), at: 0)
        try d.send(.loaded(d.lastLoad!, duration: nil), at: 0)
        try d.send(.errorOccurred(.a, PlaybackError(.connectionLost), at: PlayerTime(seconds: 100)), at: 100)
        #expect(d.state.name == .reconnecting)
        let timer = try #require(d.machine.sleepTimer)
        #expect(timer.runningSince == nil)
        #expect(timer.remaining == 500)
    }

    @Test func theEndOfTheItemEndsPlaybackInsteadOfGoingOn() throws {
        var d = try Driver.playing(Fixture.stage1, Fixture.stage2)
        try d.send(.setSleepTimer(.endOfItem))
        try d.send(.positionChanged(.a, position: 599.5))
        #expect(d.state.name == .fadingOut, "the last-item fade, not a crossfade into stage2: \(d.state)")
        try d.send(.fadeOutCompleted)
        #expect(d.state.name == .finished)
        #expect(d.machine.sleepTimer == nil, "the end of playback ends the timer")
    }

    @Test func theEndOfTheItemDropsANextItemAlreadyPrepared() throws {
        var d = try Driver.playing(Fixture.stage1, Fixture.stage2)
        try d.send(.positionChanged(.a, position: 590))
        #expect(d.state.name == .preparingCrossfade)
        let effects = try d.send(.setSleepTimer(.endOfItem))
        #expect(d.state == .playing(track: Fixture.stage1))
        #expect(effects.contains(.unload(.b)))
    }

    @Test func extendingAddsToWhatIsLeftAndCancellingClearsTheDeadline() throws {
        var d = Driver(Self.config(sleep: .after(60)))
        try d.send(.play(Fixture.request(Fixture.stage1)), at: 0)
        try d.send(.loaded(d.lastLoad!, duration: 600), at: 0)
        #expect(Self.sleepTimers(try d.send(.setSleepTimer(.extend(by: 300)), at: 30)) == [.scheduled(360)])
        #expect(d.machine.sleepTimer?.remaining(at: PlayerTime(seconds: 30)) == 330)
        let cancelled = try d.send(.setSleepTimer(.cancel), at: 31)
        #expect(Self.sleepTimers(cancelled) == [.cancelled])
        #expect(cancelled.contains(.sleepTimerChanged(nil)))
        // A firing that was cancelled changes nothing.
        try d.send(.timerFired(.sleep, at: PlayerTime(seconds: 360)), at: 360)
        #expect(d.state.name == .playing)
    }

    @Test func oneKeyStepsThroughTheUsualChoices() throws {
        var d = try Driver.playing(Fixture.stage1)
        var seen: [String] = []
        for _ in 0..<5 {
            try d.send(.setSleepTimer(.cycle))
            let timer = d.machine.sleepTimer
            seen.append(timer.map { $0.ending == .afterDuration ? "\(Int($0.remaining / 60))m" : $0.ending.rawValue } ?? "off")
        }
        #expect(seen == ["15m", "30m", "60m", "endOfItem", "off"])
    }

    @Test func requestsParseAsListenersWriteThem() {
        #expect(SleepRequest.parse("30m") == .after(1_800))
        #expect(SleepRequest.parse("90s") == .after(90))
        #expect(SleepRequest.parse("1h") == .after(3_600))
        #expect(SleepRequest.parse("1h30m") == .after(5_400))
        #expect(SleepRequest.parse("45") == .after(2_700))
        #expect(SleepRequest.parse("end") == .endOfItem)
        #expect(SleepRequest.parse("+5m") == .extend(by: 300))
        #expect(SleepRequest.parse("cancel") == .cancel)
        #expect(SleepRequest.parse("0") == nil)
        #expect(SleepRequest.parse("25h") == nil)
        #expect(SleepRequest.parse("5x") == nil)
        #expect(SleepRequest.parse("m") == nil)
    }
}
