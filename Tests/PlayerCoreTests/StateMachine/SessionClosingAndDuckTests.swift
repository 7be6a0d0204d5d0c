import Foundation
import PlayerCore
import Testing

/// The bed ducks while a voice stage sounds (through both directions of a crossfade, and while
/// one is paused), and a session with layers closes by them: `fadingOut` while the bed fades and
/// the last bell rings out, then `finished`, with each stage's end told once.
@Suite("Session layers: duck and close")
struct SessionClosingAndDuckTests {
    typealias L = SessionLayersTests

    static func ducks(_ effects: [PlayerEffect]) -> [Bool] {
        effects.compactMap { if case .duckBed(let on) = $0 { on } else { nil } }
    }

    /// Stage 1 playing, stage 2 prepared and its crossfade started (deck B coming in).
    static func crossfadingIntoStage2(_ d: inout Driver) throws -> [PlayerEffect] {
        try d.send(.positionChanged(.a, position: 585))
        try d.send(.loaded(d.lastLoad!, duration: 600))
        return try d.send(.crossfadeStarted)
    }

    // MARK: Duck

    @Test func theBedDucksFromTheStartOfTheCrossfadeIntoAVoiceToTheEndOfTheOneOutOfIt() throws {
        var d = try L.playing(L.request(voice: [1]))
        #expect(Self.ducks(d.effects).isEmpty)
        try d.send(.positionChanged(.a, position: 585))
        #expect(d.state.name == .preparingCrossfade && Self.ducks(d.effects).isEmpty)
        try d.send(.loaded(d.lastLoad!, duration: 600))
        #expect(Self.ducks(try d.send(.crossfadeStarted)) == [true])
        try d.send(.crossfadeProgress(0.5, fromPosition: 595, toPosition: 5))
        try d.send(.crossfadeCompleted)
        #expect(Self.ducks(d.effects) == [true])
        // Out of the voice: ducked until its crossfade has ended.
        try d.send(.positionChanged(.b, position: 585))
        try d.send(.loaded(d.lastLoad!, duration: 600))
        #expect(Self.ducks(try d.send(.crossfadeStarted)).isEmpty)
        try d.send(.crossfadeProgress(0.9, fromPosition: 599, toPosition: 9))
        #expect(Self.ducks(d.effects) == [true])
        #expect(Self.ducks(try d.send(.crossfadeCompleted)) == [false])
    }

    @Test func aPausedCrossfadeIntoAVoiceStaysDuckedAndResumesWithoutAChange() throws {
        for progress: Float in [0.3, 0.7] {
            var d = try L.playing(L.request(voice: [1]))
            _ = try Self.crossfadingIntoStage2(&d)
            try d.send(.crossfadeProgress(progress, fromPosition: 590 + Double(progress) * 10, toPosition: Double(progress) * 10))
            #expect(Self.ducks(try d.send(.pause)).isEmpty, "\(progress)")
            #expect(d.state.name == .crossfadePaused)
            #expect(Self.ducks(try d.send(.resume)).isEmpty, "\(progress)")
            try d.send(.crossfadeCompleted)
            #expect(Self.ducks(d.effects) == [true], "\(progress)")
        }
    }

    @Test func aPausedCrossfadeOutOfAVoiceReleasesTheBedOnlyOnceItEnds() throws {
        var d = try L.playing(L.request(voice: [0]))
        #expect(Self.ducks(d.effects) == [true])
        _ = try Self.crossfadingIntoStage2(&d)
        try d.send(.crossfadeProgress(0.6, fromPosition: 596, toPosition: 6))
        #expect(Self.ducks(try d.send(.pause)).isEmpty)
        // Resumed past half: a quick finish, and the voice has gone once it is over.
        #expect(Self.ducks(try d.send(.resume)).isEmpty)
        #expect(d.state == .crossfading(fromTrack: Fixture.stage1, toTrack: Fixture.stage2, progress: 0.6, canQuickFinish: true))
        #expect(Self.ducks(try d.send(.crossfadeCompleted)) == [false])
    }

    @Test func aCrossfadePausedAtItsEndResumesIntoTheVoiceDucked() throws {
        var d = try L.playing(L.request(voice: [1]))
        _ = try Self.crossfadingIntoStage2(&d)
        try d.send(.crossfadeProgress(1, fromPosition: 600, toPosition: 10))
        try d.send(.pause)
        let resumed = try d.send(.resume)
        #expect(d.state == .playing(track: Fixture.stage2))
        #expect(Self.ducks(resumed).isEmpty)
        #expect(Self.ducks(d.effects) == [true])
    }

    @Test func withoutABedVoiceStagesDuckNothing() throws {
        var d = try L.playing(L.request(voice: [0, 1], layers: L.plan(bed: false)))
        _ = try Self.crossfadingIntoStage2(&d)
        try d.send(.crossfadeCompleted)
        #expect(Self.ducks(d.effects).isEmpty)
    }

    // MARK: Closing

    /// Stage 3 playing after two crossfades.
    static func lastStage(_ request: PlayRequest = L.request()) throws -> Driver {
        var d = try L.playing(request)
        try L.crossfade(&d, into: .b)
        try L.crossfade(&d, into: .a)
        #expect(d.state == .playing(track: Fixture.stage3))
        return d
    }

    static func finishedCount(_ d: Driver, _ track: Track) -> Int {
        d.effects.filter { $0 == .trackFinished(track) }.count
    }

    @Test func theLastStagesEndHandsTheSessionToItsLayersThenItFinishes() throws {
        var d = try Self.lastStage()
        // No closing fade of the stage: the layers close the session.
        #expect(try d.send(.positionChanged(.a, position: 599.6)).withoutTimers.isEmpty)
        #expect(d.state == .playing(track: Fixture.stage3))
        let end = try d.send(.trackEnded(.a, at: .zero))
        #expect(end.withoutTimers == [.trackFinished(Fixture.stage3), .endLayers])
        // The bed's 8 s fade-out, not the stop's 0.5 s.
        #expect(d.state == .fadingOut(track: Fixture.stage3, targetDuration: 8))
        // Layer news goes on during the closing; an early fade report changes nothing.
        try d.send(.layersProgress(sessionTime: 1_782, bed: BedStatus(phase: .fadingOut, level: 0.3)))
        try d.send(.bellStruck(BellCue(at: 1_780, kind: .end), strike: 1, sessionTime: 1_780))
        #expect(d.state.name == .fadingOut)
        let done = try d.send(.layersFinished)
        #expect(done.contains(.stopLayers) && done.contains(.layersChanged(nil)))
        #expect(done.contains(.unload(.a)) && done.contains(.unload(.b)))
        #expect(!done.contains(.trackFinished(Fixture.stage3)))
        #expect(d.state == .finished)
        #expect(d.machine.layersStatus == nil)
        // Late reports of the old session are ignored.
        #expect(try d.send(.layersFinished).withoutTimers.isEmpty)
        #expect(try d.send(.fadeOutCompleted).withoutTimers.isEmpty)
        for stage in [Fixture.stage1, Fixture.stage2, Fixture.stage3] {
            #expect(Self.finishedCount(d, stage) == 1, "\(stage.id)")
        }
        #expect(d.names.suffix(3) == [.playing, .fadingOut, .finished])
    }

    @Test func aLayersFinishedReportBeforeTheClosingIsIgnored() throws {
        var d = try L.playing()
        #expect(try d.send(.layersFinished).isEmpty)
        #expect(d.state == .playing(track: Fixture.stage1))
        #expect(d.machine.layersStatus != nil)
    }

    @Test func theClosingLastsTheBedsFadeOrTheStopsFadeBoundedToAMinute() throws {
        for (bed, expected) in [(nil, 0.5), (0.2, 0.5), (8.0, 8.0), (600.0, 60.0)] as [(Double?, Double)] {
            let plan = LayerPlan(
                bed: bed.map { LayerPlan.Bed(url: L.bedURL, fadeOut: $0) },
                bells: LayerPlan.Bells(url: L.bellURL, schedule: BellSchedule(length: 600)), length: 600)
            var d = try L.playing(PlayRequest(items: [QueueItem(track: Fixture.stage1)], layers: plan)!)
            try d.send(.trackEnded(.a, at: .zero))
            #expect(d.state == .fadingOut(track: Fixture.stage1, targetDuration: expected), "\(String(describing: bed))")
        }
    }

    @Test func anEndBellWhoseTimeWasUnknownRingsAtTheEnd() throws {
        let plan = L.plan(schedule: BellSchedule(times: [60], length: nil), length: nil)
        var d = try L.playing(PlayRequest(items: [QueueItem(track: Fixture.file("open", duration: nil))], layers: plan)!)
        try d.send(.bellStruck(BellCue(at: 0, kind: .start), strike: 1, sessionTime: 0))
        try d.send(.bellStruck(BellCue(at: 60, kind: .interval), strike: 1, sessionTime: 60))
        #expect(d.machine.layersStatus?.nextBell == nil)
        try d.send(.layersProgress(sessionTime: 97.3, bed: nil))
        let end = try d.send(.trackEnded(.a, at: .zero))
        let cue = BellCue(at: 97.3, kind: .end)
        #expect(L.layerEffects(end).prefix(2) == [.armBell(cue), .endLayers])
        #expect(d.machine.layersStatus?.nextBell == cue)
        let struck = try d.send(.bellStruck(cue, strike: 1, sessionTime: 97.3))
        #expect(L.rang(struck) == [BellStrike(cue: cue, strike: 1, sessionTime: 97.3)] && L.armed(struck).isEmpty)
    }

    @Test func aReplaceDuringTheClosingCutsItShortWithTheStopsFade() throws {
        var d = try Self.lastStage()
        try d.send(.trackEnded(.a, at: .zero))
        let next = Fixture.file("next", duration: 60)
        let first = try d.send(.replace(.play(Fixture.request(Fixture.stage1))))
        #expect(first.withoutTimers == [.fadeOut(duration: 0.5)])
        // The latest replacement wins, with no second fade.
        #expect(try d.send(.replace(.play(Fixture.request(next)))).withoutTimers.isEmpty)
        #expect(d.state.name == .fadingOut)
        let out = try d.send(.fadeOutCompleted)
        #expect(d.state == .preparing(track: next))
        #expect(out.contains(.stopLayers) && out.contains(.layersChanged(nil)))
        #expect(!out.contains { if case .startLayers = $0 { true } else { false } })
        #expect(Self.finishedCount(d, Fixture.stage3) == 1)
        // The old session's layers are over: their last reports change nothing.
        #expect(try d.send(.layersFinished).withoutTimers.isEmpty)
        #expect(d.state == .preparing(track: next))
    }

    @Test func aReplaceDuringTheClosingStartsWhenTheLayersFinishFirst() throws {
        var d = try Self.lastStage()
        try d.send(.trackEnded(.a, at: .zero))
        let other = L.request(layers: L.plan(schedule: BellSchedule(times: [30], length: 1_780)))
        try d.send(.replace(.play(other)))
        let out = try d.send(.layersFinished)
        #expect(d.state == .preparing(track: Fixture.stage1))
        // The old layers stop before the new ones start.
        let stop = out.firstIndex(of: .stopLayers)
        let start = out.firstIndex(of: .startLayers(other.layers!))
        #expect(stop != nil && start != nil && stop! < start!, "\(L.layerEffects(out))")
        #expect(try d.send(.fadeOutCompleted).withoutTimers.isEmpty)
        #expect(Self.finishedCount(d, Fixture.stage3) == 1)
    }

    @Test func aStopDuringTheClosingCutsItShortWithTheStopsFade() throws {
        var d = try Self.lastStage()
        try d.send(.trackEnded(.a, at: .zero))
        let closing = d.state
        #expect(try d.send(.stop).withoutTimers == [.fadeOut(duration: 0.5)])
        #expect(d.state == closing)
        // A second stop changes nothing: the fade is under way.
        #expect(try d.send(.stop).withoutTimers.isEmpty)
        let out = try d.send(.fadeOutCompleted)
        #expect(d.state == .finished)
        #expect(L.layerEffects(out) == [.stopLayers, .layersChanged(nil)])
        #expect(Self.finishedCount(d, Fixture.stage3) == 1)
    }

    @Test func theClosingReleasesTheDuckOfALastVoiceStage() throws {
        var d = try Self.lastStage(L.request(voice: [2]))
        let out = try d.send(.trackEnded(.a, at: .zero))
        #expect(L.layerEffects(out).contains(.duckBed(false)))
    }

    @Test func aStopMidSessionFadesEverythingAndReleasesTheLayers() throws {
        var d = try L.playing()
        #expect(L.layerEffects(try d.send(.stop)).isEmpty)
        #expect(d.state == .fadingOut(track: Fixture.stage1, targetDuration: 0.5))
        let out = try d.send(.fadeOutCompleted)
        #expect(L.layerEffects(out) == [.stopLayers, .layersChanged(nil)])
        #expect(!d.effects.contains(.endLayers))
        #expect(Self.finishedCount(d, Fixture.stage1) == 0)
        #expect(d.state == .finished)
    }

    @Test func playingAnotherRequestReplacesTheLayers() throws {
        var d = try L.playing()
        try d.send(.stop)
        try d.send(.fadeOutCompleted)
        let plain = try d.send(.play(Fixture.request(Fixture.stage2)))
        #expect(L.layerEffects(plain).isEmpty, "the finished session's layers were released already")
        var e = try L.playing()
        try e.send(.pause)
        let other = L.plan(bed: false)
        let out = try e.send(.replace(.play(L.request(layers: other))))
        #expect(L.layerEffects(out).prefix(3) == [.stopLayers, .layersChanged(nil), .startLayers(other)])
    }
}
