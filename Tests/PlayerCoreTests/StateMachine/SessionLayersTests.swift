import Foundation
import Testing

@testable import PlayerCore

/// What the state machine decides about a session's layers: which bell is armed and when, what a
/// seek does to the bells, and how the session closes once its stages are over.
@Suite("Session layers in the state machine")
struct SessionLayersTests {
    static let bedURL = URL(fileURLWithPath: "/sessions/rain.flac")
    static let bellURL = URL(fileURLWithPath: "/sessions/gong.flac")

    static func plan(
        bed: Bool = true, schedule: BellSchedule? = BellSchedule(interval: 300, length: 1_780), strikes: Int = 1, length: Double? = 1_780
    ) -> LayerPlan {
        LayerPlan(
            bed: bed ? LayerPlan.Bed(url: bedURL, fadeOut: 8) : nil,
            bells: schedule.map { LayerPlan.Bells(url: bellURL, strikes: strikes, strikeSpacing: 3, schedule: $0) }, length: length)
    }

    /// The three 600 s stages with 10 s crossfades; `voice` marks stages by index.
    static func request(voice: Set<Int> = [], layers: LayerPlan? = plan()) -> PlayRequest {
        let stages = [Fixture.stage1, Fixture.stage2, Fixture.stage3]
        let items = stages.enumerated().map { i, track in
            QueueItem(track: track, crossfadeIntoNext: CrossfadeSpec(duration: 10), isVoice: voice.contains(i))
        }
        return PlayRequest(items: items, layers: layers)!
    }

    /// The layer effects among `effects`, in order.
    static func layerEffects(_ effects: [PlayerEffect]) -> [PlayerEffect] {
        effects.filter {
            switch $0 {
            case .startLayers, .armBell, .duckBed, .endLayers, .stopLayers, .layersChanged, .bellRang: true
            default: false
            }
        }
    }

    static func armed(_ effects: [PlayerEffect]) -> [BellCue] {
        effects.compactMap { if case .armBell(let cue) = $0 { cue } else { nil } }
    }

    static func rang(_ effects: [PlayerEffect]) -> [BellStrike] {
        effects.compactMap { if case .bellRang(let strike) = $0 { strike } else { nil } }
    }

    static func told(_ effects: [PlayerEffect]) -> [SessionLayersStatus?] {
        effects.compactMap { if case .layersChanged(let status) = $0 { .some(status) } else { nil } }
    }

    /// A session playing its first stage.
    static func playing(_ request: PlayRequest = request(), config: PlayerStateMachine.Configuration = Fixture.config()) throws -> Driver {
        var d = Driver(config)
        try d.send(.play(request))
        try d.send(.loaded(d.lastLoad!, duration: 600))
        return d
    }

    /// Plays from stage `from` (the current one) into the next: preparation, crossfade, completion.
    static func crossfade(_ d: inout Driver, into deck: DeckID) throws {
        let outgoing = deck.opposite
        try d.send(.positionChanged(outgoing, position: 585))
        try d.send(.loaded(d.lastLoad!, duration: 600))
        try d.send(.crossfadeStarted)
        try d.send(.crossfadeProgress(1, fromPosition: 600, toPosition: 10))
        try d.send(.crossfadeCompleted)
    }

    // MARK: Starting

    @Test func playStartsTheLayersAndArmsTheFirstBellBeforeTheFirstStageLoads() throws {
        let plan = Self.plan()
        var d = Driver(Fixture.config())
        let out = try d.send(.play(Self.request(layers: plan)))
        let start = BellCue(at: 0, kind: .start)
        #expect(Self.layerEffects(out) == [
            .startLayers(plan), .armBell(start),
            .layersChanged(SessionLayersStatus(length: 1_780, bed: BedStatus(phase: .loading, level: 0), nextBell: start)),
        ])
        let startIndex = out.firstIndex(of: .startLayers(plan))
        let loadIndex = out.firstIndex { if case .load = $0 { true } else { false } }
        #expect(startIndex != nil && loadIndex != nil && startIndex! < loadIndex!)
        #expect(d.machine.layersStatus?.nextBell == start)
        // Without a start bell, the first interval bell is armed; without bells, none.
        var late = Driver(Fixture.config())
        try late.send(.play(Self.request(layers: Self.plan(schedule: BellSchedule(interval: 300, start: false, length: 1_780)))))
        #expect(Self.armed(late.effects) == [BellCue(at: 300, kind: .interval)])
        var bedOnly = Driver(Fixture.config())
        try bedOnly.send(.play(Self.request(layers: Self.plan(schedule: nil))))
        #expect(Self.armed(bedOnly.effects).isEmpty)
        #expect(bedOnly.effects.contains(.startLayers(Self.plan(schedule: nil))))
    }

    @Test func aRequestWithoutLayersHasNoLayerEffectsFromStartToFinish() throws {
        var d = try Self.playing(Self.request(voice: [1], layers: nil))
        // Facts about layers that do not exist change nothing.
        let stray: [PlayerEvent] = [
            .layersProgress(sessionTime: 3, bed: BedStatus(phase: .playing, level: 0.6)),
            .bellStruck(BellCue(at: 0, kind: .start), strike: 1, sessionTime: 0),
            .sessionClockJumped(from: 3, to: 400), .layersFinished,
        ]
        for event in stray { #expect(try d.send(event).isEmpty, "\(event)") }
        try Self.crossfade(&d, into: .b)
        try Self.crossfade(&d, into: .a)
        try d.send(.positionChanged(.a, position: 599.4))
        #expect(d.state.name == .fadingOut)
        try d.send(.fadeOutCompleted)
        #expect(d.state == .finished)
        #expect(Self.layerEffects(d.effects).isEmpty, "\(Self.layerEffects(d.effects))")
        #expect(d.machine.layersStatus == nil)
    }

    // MARK: Bells

    @Test func theNextBellIsArmedOnlyAfterTheLastStrikeOfTheOneBefore() throws {
        var d = try Self.playing(Self.request(layers: Self.plan(strikes: 2)))
        let start = BellCue(at: 0, kind: .start)
        let first = try d.send(.bellStruck(start, strike: 1, sessionTime: 0))
        #expect(Self.rang(first) == [BellStrike(cue: start, strike: 1, sessionTime: 0)])
        #expect(Self.armed(first).isEmpty, "armed before the second strike: \(first)")
        let second = try d.send(.bellStruck(start, strike: 2, sessionTime: 3))
        #expect(Self.rang(second) == [BellStrike(cue: start, strike: 2, sessionTime: 3)])
        #expect(Self.armed(second) == [BellCue(at: 300, kind: .interval)])
        #expect(d.machine.layersStatus?.nextBell == BellCue(at: 300, kind: .interval))
        #expect(d.machine.layersStatus?.strikesRung == 2)
        // A strike of a cue that is not armed (a late report of one replaced) is not told.
        #expect(try d.send(.bellStruck(start, strike: 2, sessionTime: 3)).isEmpty)
        #expect(try d.send(.bellStruck(BellCue(at: 900, kind: .interval), strike: 1, sessionTime: 900)).isEmpty)
        #expect(d.machine.layersStatus?.strikesRung == 2)
    }

    @Test func afterTheEndBellNothingIsArmed() throws {
        var d = try Self.playing(Self.request(layers: Self.plan(schedule: BellSchedule(times: [30], length: 60), length: 60)))
        for cue in [BellCue(at: 0, kind: .start), BellCue(at: 30, kind: .interval)] {
            try d.send(.bellStruck(cue, strike: 1, sessionTime: cue.at))
        }
        #expect(Self.armed(d.effects).last == BellCue(at: 60, kind: .end))
        let end = try d.send(.bellStruck(BellCue(at: 60, kind: .end), strike: 1, sessionTime: 60))
        #expect(Self.armed(end).isEmpty)
        #expect(d.machine.layersStatus?.nextBell == nil)
    }

    @Test func aForwardSeekTellsEveryBellItJumpsOverAsSkippedAndArmsTheNextOne() throws {
        var d = try Self.playing()
        try d.send(.bellStruck(BellCue(at: 0, kind: .start), strike: 1, sessionTime: 0))
        let out = try d.send(.sessionClockJumped(from: 100, to: 950))
        #expect(Self.rang(out) == [300.0, 600, 900].map { BellStrike(cue: BellCue(at: $0, kind: .interval), strike: 1, sessionTime: 950, skipped: true) })
        #expect(Self.armed(out) == [BellCue(at: 1_200, kind: .interval)])
        #expect(d.machine.layersStatus?.nextBell == BellCue(at: 1_200, kind: .interval))
        #expect(d.machine.layersStatus?.elapsed == 950)
        // A jump that passes no bell changes nothing about them; one onto a bell's time keeps it.
        let small = try d.send(.sessionClockJumped(from: 950, to: 1_000))
        #expect(Self.rang(small).isEmpty && Self.armed(small).isEmpty)
        let onto = try d.send(.sessionClockJumped(from: 1_000, to: 1_200))
        #expect(Self.rang(onto).isEmpty && Self.armed(onto).isEmpty)
        #expect(d.machine.layersStatus?.nextBell == BellCue(at: 1_200, kind: .interval))
    }

    @Test func aBackwardSeekArmsTheFirstBellAfterTheNewTimeAgain() throws {
        var d = try Self.playing()
        for at in [0.0, 300] {
            try d.send(.bellStruck(BellCue(at: at, kind: at == 0 ? .start : .interval), strike: 1, sessionTime: at))
        }
        #expect(d.machine.layersStatus?.nextBell == BellCue(at: 600, kind: .interval))
        let back = try d.send(.sessionClockJumped(from: 420, to: 250))
        #expect(Self.rang(back).isEmpty)
        #expect(Self.armed(back) == [BellCue(at: 300, kind: .interval)])
        // Back to the very start: the start bell rings again.
        let start = try d.send(.sessionClockJumped(from: 260, to: 0))
        #expect(Self.armed(start) == [BellCue(at: 0, kind: .start)])
    }

    @Test func aSeekBetweenTheStrikesOfABellKeepsTheStrikesStillAhead() throws {
        var d = try Self.playing(Self.request(layers: Self.plan(strikes: 2)))
        let start = BellCue(at: 0, kind: .start)
        let interval = BellCue(at: 300, kind: .interval)
        try d.send(.bellStruck(start, strike: 1, sessionTime: 0))
        try d.send(.bellStruck(start, strike: 2, sessionTime: 3))
        try d.send(.bellStruck(interval, strike: 1, sessionTime: 300))
        // 301 -> 302: the second strike (303) is still ahead. Nothing was jumped over.
        let short = try d.send(.sessionClockJumped(from: 301, to: 302))
        #expect(Self.rang(short).isEmpty, "\(Self.rang(short))")
        #expect(Self.armed(short).isEmpty, "the cue with a strike to come was replaced: \(short)")
        // 302 -> 310: the second strike is jumped over; the first had rung and is not told again.
        let past = try d.send(.sessionClockJumped(from: 302, to: 310))
        #expect(Self.rang(past) == [BellStrike(cue: interval, strike: 2, sessionTime: 310, skipped: true)])
        #expect(Self.armed(past) == [BellCue(at: 600, kind: .interval)])
    }

    @Test func aSeekBackAfterTheFirstStrikeRingsTheWholeBellAgain() throws {
        var d = try Self.playing(Self.request(layers: Self.plan(strikes: 2)))
        let start = BellCue(at: 0, kind: .start)
        let interval = BellCue(at: 300, kind: .interval)
        try d.send(.bellStruck(start, strike: 1, sessionTime: 0))
        try d.send(.bellStruck(start, strike: 2, sessionTime: 3))
        try d.send(.bellStruck(interval, strike: 1, sessionTime: 300))
        let back = try d.send(.sessionClockJumped(from: 301, to: 200))
        #expect(Self.armed(back) == [interval], "the half-rung bell must be armed again: \(back)")
        let one = try d.send(.bellStruck(interval, strike: 1, sessionTime: 300))
        #expect(Self.rang(one) == [BellStrike(cue: interval, strike: 1, sessionTime: 300)] && Self.armed(one).isEmpty)
        let two = try d.send(.bellStruck(interval, strike: 2, sessionTime: 303))
        #expect(Self.armed(two) == [BellCue(at: 600, kind: .interval)])
    }

    @Test func aHugeForwardSeekTellsABoundedNumberOfSkippedBells() throws {
        var d = try Self.playing(Self.request(layers: Self.plan(schedule: BellSchedule(interval: 10, length: nil), length: nil)))
        try d.send(.bellStruck(BellCue(at: 0, kind: .start), strike: 1, sessionTime: 0))
        let out = try d.send(.sessionClockJumped(from: 1, to: 86_000))
        #expect(Self.rang(out).count == 100)
        #expect(Self.armed(out) == [BellCue(at: 86_000, kind: .interval)])
    }

    // MARK: Status

    @Test func theFrontEndsAreToldOnlyWhatIsWorthTelling() throws {
        var d = try Self.playing()
        let bed = { (phase: BedStatus.Phase, level: Float) in BedStatus(phase: phase, level: level) }
        // Within the same second, with the bed fading in by less than 2 %: nothing.
        try d.send(.layersProgress(sessionTime: 0.1, bed: bed(.fadingIn, 0)))
        let before = Self.told(d.effects).count
        for (t, level) in [(0.2, Float(0.005)), (0.5, 0.012), (0.9, 0.019)] {
            #expect(Self.told(try d.send(.layersProgress(sessionTime: t, bed: bed(.fadingIn, level)))).isEmpty, "\(t)")
        }
        // A new phase, 2 % of level, a new second: each is told.
        #expect(Self.told(try d.send(.layersProgress(sessionTime: 0.95, bed: bed(.fadingIn, 0.021)))).count == 1)
        #expect(Self.told(try d.send(.layersProgress(sessionTime: 0.97, bed: bed(.playing, 0.021)))).count == 1)
        let second = try d.send(.layersProgress(sessionTime: 1.0, bed: bed(.playing, 0.021)))
        #expect(Self.told(second) == [SessionLayersStatus(
            elapsed: 1, length: 1_780, bed: bed(.playing, 0.021), nextBell: BellCue(at: 0, kind: .start))])
        // A strike is told with its count, at once.
        let strike = try d.send(.bellStruck(BellCue(at: 0, kind: .start), strike: 1, sessionTime: 0))
        #expect(Self.told(strike).first??.strikesRung == 1)
        #expect(Self.told(d.effects).count == before + 4)
        // A bed status for a plan without a bed is not shown.
        var bare = try Self.playing(Self.request(layers: Self.plan(bed: false)))
        try bare.send(.layersProgress(sessionTime: 2, bed: bed(.playing, 0.5)))
        #expect(bare.machine.layersStatus?.bed == nil)
        #expect(bare.machine.layersStatus?.elapsed == 2)
    }

    @Test func worthTellingComparesBySecondsPhaseAndTwoPercent() {
        let base = SessionLayersStatus(elapsed: 10.2, length: 600, bed: BedStatus(phase: .playing, level: 0.5), nextBell: nil)
        var same = base
        same.elapsed = 10.9
        same.bed?.level = 0.51
        #expect(!PlayerStateMachine.worthTelling(same, after: base))
        var later = base
        later.elapsed = 11
        #expect(PlayerStateMachine.worthTelling(later, after: base))
        var louder = base
        louder.bed?.level = 0.53
        #expect(PlayerStateMachine.worthTelling(louder, after: base))
        var noBed = base
        noBed.bed = nil
        #expect(PlayerStateMachine.worthTelling(noBed, after: base))
        var bell = base
        bell.nextBell = BellCue(at: 20, kind: .interval)
        #expect(PlayerStateMachine.worthTelling(bell, after: base))
    }
}
