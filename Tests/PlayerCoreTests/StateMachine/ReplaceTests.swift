import Foundation
import PlayerCore
import Testing

/// `replace` opens something new from any state: what sounds fades out first, and the state goes
/// from the old item to the new one without passing through `idle` or `finished`.
@Suite("Replacing what plays")
struct ReplaceTests {
    static let newTrack = Fixture.file("new", duration: 120)

    @Test(arguments: IntentRejectionTests.samples.map(\.0))
    func replaceStartsTheNewItemFromEveryState(_ label: String) throws {
        var d = try IntentRejectionTests.samples.first { $0.0 == label }!.1()
        let audible = [.playing, .preparingCrossfade, .crossfading].contains(d.state.name)
        let fading = d.state.name == .fadingOut
        let before = d.names.count
        let out = try d.send(.replace(.play(Fixture.request(Self.newTrack))))
        if audible || fading {
            #expect(d.state.name == .fadingOut, "\(label): something sounds, so it fades out first")
            #expect(!out.contains { if case .load = $0 { true } else { false } }, "\(label): nothing loads during the fade")
            if audible { #expect(out.contains(.fadeOut(duration: d.machine.configuration.fadeOutDuration))) }
            try d.send(.fadeOutCompleted)
        }
        #expect(d.state == .preparing(track: Self.newTrack), "\(label)")
        guard case .load(_, _, let track, let from)? = d.effects.last(where: { if case .load = $0 { true } else { false } }) else {
            Issue.record("\(label): no load of the new item")
            return
        }
        #expect(track == Self.newTrack && from == 0)
        let passed = d.names.dropFirst(before)
        #expect(!passed.contains(.idle) && !passed.contains(.finished), "\(label): \(passed)")
    }

    @Test func aPausedEpisodeKeepsItsPlaceWhenReplaced() throws {
        let episode = Fixture.episode("talk")
        var d = try Driver.playing(episode)
        try d.send(.positionChanged(.a, position: 754))
        try d.send(.pause)
        let out = try d.send(.replace(.play(Fixture.request(Self.newTrack))))
        #expect(out.contains(.persistPosition(ResumePoint(track: episode, position: 754, duration: 3600))))
        #expect(d.state == .preparing(track: Self.newTrack))
    }

    @Test func somethingThatCannotPlayReplacesWithAFailure() throws {
        var d = try Driver.paused()
        try d.send(.replace(.cannotPlay(PlaybackError(.missingAudioURL))))
        guard case .failed(let error, let recoverable, _) = d.state else {
            Issue.record("expected failed, got \(d.state.name)")
            return
        }
        #expect(error.code == .missingAudioURL && !recoverable)
    }

    @Test func theLatestReplacementDuringAFadeWins() throws {
        var d = try Driver.playing(Fixture.stage1)
        try d.send(.replace(.play(Fixture.request(Fixture.stage2))))
        try d.send(.replace(.play(Fixture.request(Self.newTrack))))
        try d.send(.fadeOutCompleted)
        #expect(d.state == .preparing(track: Self.newTrack))
    }

    @Test func aStopDuringTheFadeCallsTheReplacementOff() throws {
        var d = try Driver.playing(Fixture.stage1)
        try d.send(.replace(.play(Fixture.request(Self.newTrack))))
        #expect(d.state.name == .fadingOut)
        try d.send(.stop)
        let out = try d.send(.fadeOutCompleted)
        #expect(d.state.name == .finished)
        #expect(!out.contains { if case .load = $0 { true } else { false } })
    }

    @Test func anErrorWhileFadingStillStartsTheReplacement() throws {
        var d = try Driver.playing(Fixture.stage1)
        try d.send(.replace(.play(Fixture.request(Self.newTrack))))
        try d.send(.errorOccurred(.a, PlaybackError(.corruptData), at: PlayerTime(seconds: 1)))
        #expect(d.state == .preparing(track: Self.newTrack))
    }
}
