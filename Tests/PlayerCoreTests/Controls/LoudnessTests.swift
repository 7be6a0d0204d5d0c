import Foundation
import PlayerCore
import Testing

/// Loudness levelling's decisions: what a tag says, the gain a track or a session gets, the
/// adaptive range, and that the machine keeps the mode as context.
@Suite("Loudness levelling")
struct LoudnessTests {
    @Test func anR128TagIsQ78DecibelsFromMinus23() {
        // -1280/256 = -5 dB of gain: the track is 5 dB louder than -23 LUFS.
        #expect(Loudness.fromTags(["R128_TRACK_GAIN": "-1280"]) == Loudness(integrated: -18, source: .r128Tag))
        #expect(Loudness.fromTags(["r128_track_gain": " 512 "]) == Loudness(integrated: -25, source: .r128Tag))
    }

    @Test func aReplayGainTagIsDecibelsFromMinus18() {
        #expect(Loudness.fromTags(["REPLAYGAIN_TRACK_GAIN": "-6.20 dB"]) == Loudness(integrated: -11.8, source: .replayGainTag))
        #expect(Loudness.fromTags(["replaygain_track_gain": "+2.5dB"]) == Loudness(integrated: -20.5, source: .replayGainTag))
        // The R128 tag wins when both are there (it is the Opus one, the other may be stale).
        #expect(Loudness.fromTags(["REPLAYGAIN_TRACK_GAIN": "0 dB", "R128_TRACK_GAIN": "0"])?.source == .r128Tag)
    }

    @Test func anAlbumGainIsReadOnlyWhenTheAlbumIsAsked() {
        let tags = ["REPLAYGAIN_TRACK_GAIN": "-2 dB", "REPLAYGAIN_ALBUM_GAIN": "+3 dB", "R128_ALBUM_GAIN": "-512"]
        #expect(Loudness.fromTags(tags) == Loudness(integrated: -16, source: .replayGainTag))
        // The album's R128 tag wins over its ReplayGain tag, as for a track: -23 + 2 = -21.
        #expect(Loudness.fromTags(tags, scope: .album) == Loudness(integrated: -21, source: .r128Tag))
        #expect(Loudness.fromTags(["replaygain_album_gain": "+3 dB"], scope: .album) == Loudness(integrated: -21, source: .replayGainTag))
        // A track gain is never taken for the album's.
        #expect(Loudness.fromTags(["REPLAYGAIN_TRACK_GAIN": "-2 dB"], scope: .album) == nil)
    }

    @Test func brokenOrImplausibleTagsAreIgnored() {
        #expect(Loudness.fromTags([:]) == nil)
        #expect(Loudness.fromTags(["REPLAYGAIN_TRACK_GAIN": "loud"]) == nil)
        #expect(Loudness.fromTags(["REPLAYGAIN_TRACK_GAIN": "nan dB"]) == nil)
        #expect(Loudness.fromTags(["REPLAYGAIN_TRACK_GAIN": "+90 dB"]) == nil)
        #expect(Loudness.fromTags(["REPLAYGAIN_TRACK_GAIN": String(repeating: "1", count: 500)]) == nil)
        #expect(Loudness.fromTags(["R128_TRACK_GAIN": "1.5"]) == nil)
        #expect(Loudness.fromTags(["R128_TRACK_GAIN": "99999999"]) == nil)
        // Louder than full scale is not a loudness any track has.
        #expect(Loudness.fromTags(["REPLAYGAIN_TRACK_GAIN": "-30 dB"]) == nil)
        #expect(Loudness(integrated: -.infinity, source: .measured) == nil)
    }

    @Test func trackModeBringsEachTrackToTheTarget() {
        let levelling = LoudnessLevelling(mode: .track)
        #expect(levelling.gain(track: Loudness(integrated: -30, source: .measured), session: nil) == 14)
        #expect(levelling.gain(track: Loudness(integrated: -10, source: .measured), session: nil) == -6)
        // A session's figure does not matter per track.
        #expect(levelling.gain(track: Loudness(integrated: -20, source: .measured), session: Loudness(integrated: -10, source: .measured)) == 4)
        #expect(levelling.gain(track: nil, session: nil) == nil, "unknown: levelled adaptively")
        #expect(LoudnessLevelling.off.gain(track: Loudness(integrated: -30, source: .measured), session: nil) == nil)
    }

    @Test func boostsAndCutsAreBounded() {
        let levelling = LoudnessLevelling(mode: .track)
        #expect(levelling.gain(track: Loudness(integrated: -60, source: .measured), session: nil) == LoudnessLevelling.maxBoost)
        #expect(LoudnessLevelling(mode: .track, target: -5).gain(track: Loudness(integrated: -0.5, source: .measured), session: nil) == -4.5)
        #expect(LoudnessLevelling(mode: .track, target: -100).target == -31)
        #expect(LoudnessLevelling(mode: .track, target: .nan).target == -16)
    }

    @Test func sessionModeUsesTheSessionsLoudnessForEveryStage() {
        let levelling = LoudnessLevelling(mode: .session, target: -16)
        let session = Loudness(integrated: -20, source: .measured)
        #expect(levelling.gain(track: Loudness(integrated: -30, source: .measured), session: session) == 4)
        #expect(levelling.gain(track: Loudness(integrated: -12, source: .measured), session: session) == 4)
        // Outside a session, session mode is track mode.
        #expect(levelling.gain(track: Loudness(integrated: -12, source: .measured), session: nil) == -4)
    }

    /// A session's loudness averages the stages' energies by duration.
    @Test func stagesCombineByEnergyAndDuration() throws {
        let a = Loudness(integrated: -20, source: .measured)
        let b = Loudness(integrated: -10, source: .measured)
        let equal = try #require(Loudness.combined([(a, 60), (b, 60)]))
        // 10^-2 and 10^-1 averaged: 10 log10(0.055) = -12.6.
        #expect(abs(equal.integrated - -12.6) < 0.05)
        let mostlyQuiet = try #require(Loudness.combined([(a, 540), (b, 60)]))
        #expect(abs(mostlyQuiet.integrated - 10 * log10(0.9 * 0.01 + 0.1 * 0.1)) < 0.01)
        #expect(Loudness.combined([(a, 60), (nil, 60)]) == nil, "an unknown stage leaves the session unknown")
        #expect(Loudness.combined([]) == nil)
    }

    @Test func adaptiveLevellingFollowsTheShortTermWithinItsRange() {
        let levelling = LoudnessLevelling(mode: .track)
        #expect(levelling.adaptiveGain(shortTerm: -22) == 6)
        #expect(levelling.adaptiveGain(shortTerm: -40) == 12)
        #expect(levelling.adaptiveGain(shortTerm: -2) == -12)
        #expect(levelling.adaptiveGain(shortTerm: -60) == nil, "a pause keeps the gain")
        #expect(LoudnessLevelling.off.adaptiveGain(shortTerm: -22) == nil)
    }

    @Test func modesParseAndCycle() {
        #expect(LoudnessMode.parse(" Track ") == .track)
        #expect(LoudnessMode.parse("album") == nil)
        #expect(LoudnessMode.off.next == .track && LoudnessMode.track.next == .session && LoudnessMode.session.next == .off)
        let custom = LoudnessLevelling(mode: .off, target: -20)
        #expect(LoudnessChange.cycle.applied(to: custom) == LoudnessLevelling(mode: .track, target: -20), "the target is kept")
        #expect(LoudnessChange.to(.session).applied(to: custom) == LoudnessLevelling(mode: .session, target: -20))
    }

    /// Every state accepts a change of levelling and stays itself; only a real change is an effect.
    @Test(arguments: IntentRejectionTests.samples.map(\.0))
    func everyStateTakesALevellingChangeAndStaysItself(_ label: String) throws {
        var d = try IntentRejectionTests.samples.first { $0.0 == label }!.1()
        let before = d.machine.state
        let track = LoudnessLevelling(mode: .track)
        let effects = try d.send(.setLoudness(track))
        #expect(d.machine.state == before, "\(label)")
        #expect(effects.filter { if case .setLoudness = $0 { true } else { false } } == [.setLoudness(track)], "\(label): \(effects)")
        #expect(d.machine.loudness == track)
        #expect(try d.send(.setLoudness(track)).isEmpty, "\(label): no change, no effect")
    }

    @Test func aLoudnessCommandCyclesFromTheLevellingInForce() throws {
        for (label, make) in IntentRejectionTests.samples {
            let state = try make().machine.state
            let current = LoudnessLevelling(mode: .track, target: -14)
            #expect(
                PlayerCommand.loudness(.cycle).intent(in: state, position: nil, loudness: current)
                    == .setLoudness(LoudnessLevelling(mode: .session, target: -14)), "\(label)")
        }
    }

    @Test func theConfigurationSetsTheStartingLevelling() {
        var config = Fixture.config()
        config.loudness = LoudnessLevelling(mode: .session, target: -18)
        #expect(PlayerStateMachine(configuration: config).loudness == LoudnessLevelling(mode: .session, target: -18))
        #expect(PlayerStateMachine().loudness == .off, "off unless asked: tracks play as mastered")
    }

    @Test func aLiveStreamCarriesNoLoudness() {
        let live = Track(
            id: "r", url: URL(string: "http://radio.example/live")!, kind: .liveStream, loudness: Loudness(integrated: -20, source: .measured))
        #expect(live.loudness == nil)
    }
}
