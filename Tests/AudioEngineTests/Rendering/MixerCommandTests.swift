import Foundation
import Media
import PlayerCore
import Testing

@testable import AudioEngine

/// What each command does to the render thread's decks and mix (`MixerState.apply`), without the
/// thread: slots, stale loads, crossfades cut short, holds, the limiter's way in.
@Suite("The render thread's command reducer")
struct MixerCommandTests {
    private static func state(volume: Double = 1, loudness: LoudnessLevelling = .off) -> MixerState {
        MixerState(mode: .realtime, network: NetworkBuffering(), volume: volume, speed: 1, trimsSilence: false, loudness: loudness)
    }

    /// A deck as a finished load hands it over (its decode thread not started: nothing here reads it).
    private static func deck(_ node: DeckID, load: UInt64, kind: Track.Kind = .file, seconds: Double = 1) -> Deck {
        let url = kind == .file ? URL(fileURLWithPath: "/tone") : URL(string: "http://radio.invalid/\(load)")!
        let track = Track(id: "\(node)-\(load)", url: url, kind: kind, duration: seconds)
        return Deck(
            node: node, loadID: LoadID(load), track: track, decoder: SteadyToneDecoder(left: 0.5, right: 0.5, seconds: seconds),
            startAt: 0, lookaheadFrames: 48_000)
    }

    /// A and B installed, A sounding.
    private static func playing() -> (MixerState, a: Deck, b: Deck) {
        var state = state()
        let a = deck(.a, load: 1), b = deck(.b, load: 2)
        _ = state.apply(.expectLoad(.a, LoadID(1)))
        _ = state.apply(.install(a))
        _ = state.apply(.expectLoad(.b, LoadID(2)))
        _ = state.apply(.install(b))
        _ = state.apply(.start(.a))
        return (state, a, b)
    }

    @Test func anInstallOfALoadNoLongerExpectedIsStoppedAndNotReported() {
        var state = Self.state()
        _ = state.apply(.expectLoad(.a, LoadID(1)))
        _ = state.apply(.expectLoad(.a, LoadID(2)))  // replaced before the first one finished
        let stale = Self.deck(.a, load: 1), current = Self.deck(.a, load: 2)
        #expect(state.apply(.install(stale)).isEmpty)
        #expect(stale.isStopped)
        #expect(state.decks[.a] == nil)
        #expect(state.apply(.install(current)) == [.loaded(LoadID(2), duration: 1)])
        #expect(state.decks[.a] === current && !current.isStopped)
        #expect(state.expected.isEmpty)
    }

    @Test func aFailedLoadIsReportedOnlyWhileItIsExpected() {
        var state = Self.state()
        let error = PlaybackError(.fileNotFound)
        #expect(state.apply(.loadFailed(LoadID(1), error)).isEmpty)
        _ = state.apply(.expectLoad(.b, LoadID(1)))
        #expect(state.apply(.loadFailed(LoadID(1), error)) == [.loadFailed(LoadID(1), error)])
        #expect(state.apply(.loadFailed(LoadID(1), error)).isEmpty, "told once")
    }

    @Test func startingADeckOpensWithADeclickFromSilence() {
        var (state, _, _) = Self.playing()
        #expect(state.active == .a && state.audible == [.a])
        #expect(state.master.value == 0 && state.master.target == 1 && state.master.remaining == MasterGain.declickFrames)
        #expect(!state.holding)
        #expect(state.apply(.start(.b)).isEmpty)
        #expect(state.active == .b, "the deck started last is the one reported")
    }

    @Test func unloadingTheOutgoingDeckMidCrossfadeLeavesTheIncomingOnePlaying() {
        var (state, a, b) = Self.playing()
        _ = state.apply(.scheduleCrossfade(from: .a, to: .b, duration: 2, curve: .linear, atPosition: 0.5))
        // The render loop starts it on its frame: the incoming deck sounds too.
        state.crossfade?.startAtFromFrame = nil
        state.audible.insert(.b)
        _ = state.apply(.unload(.a))
        #expect(a.isStopped && state.decks[.a] == nil)
        #expect(state.crossfade == nil)
        #expect(state.active == .b && state.audible == [.b] && !b.isStopped)
    }

    @Test func unloadingTheOutgoingDeckBeforeTheCrossfadeStartsLeavesNothingPlaying() {
        var (state, _, b) = Self.playing()
        _ = state.apply(.scheduleCrossfade(from: .a, to: .b, duration: 2, curve: .linear, atPosition: 0.5))
        _ = state.apply(.unload(.a))
        #expect(state.crossfade == nil)
        #expect(state.active == nil && state.audible.isEmpty)
        #expect(state.decks[.b] === b, "the next deck stays loaded for the machine to start")
    }

    @Test func abortingACrossfadeKeepsOneDeckAndStopsTheOther() {
        var (state, a, b) = Self.playing()
        _ = state.apply(.scheduleCrossfade(from: .a, to: .b, duration: 2, curve: .equalPower, atPosition: nil))
        state.crossfade?.startAtFromFrame = nil
        state.audible.insert(.b)
        _ = state.apply(.abortCrossfade(keep: .a))
        #expect(state.crossfade == nil)
        #expect(b.isStopped && state.decks[.b] == nil)
        #expect(state.active == .a && state.audible == [.a] && !a.isStopped)
    }

    @Test func pauseAndFadeOutWithNothingSoundingAreOverAtOnce() {
        var idle = Self.state()
        #expect(idle.apply(.pauseOutput).isEmpty)
        #expect(idle.holding)
        var fading = Self.state()
        #expect(fading.apply(.fadeOut(duration: 2)) == [.fadeOutCompleted])
        #expect(fading.holding)
    }

    @Test func pauseAndFadeOutWhileADeckSoundsRampTheMasterGainFirst() {
        var (state, _, _) = Self.playing()
        #expect(state.apply(.pauseOutput).isEmpty)
        #expect(!state.holding && state.master.target == 0 && state.master.completion == .hold)
        #expect(state.apply(.resumeOutput).isEmpty)
        #expect(state.master.target == 1 && state.master.completion == .none)
        #expect(state.apply(.fadeOut(duration: 1)).isEmpty)
        #expect(!state.holding && state.master.remaining == 48_000 && state.master.completion == .fadeOutDone)
    }

    @Test func aVolumeBoostPutsTheLimiterInAtOnceOnlyWhenNothingSounds() {
        var idle = Self.state()
        _ = idle.apply(.setVolume(1.5))
        #expect(idle.limiter.limiter != nil)

        var (state, _, _) = Self.playing()
        state.master.set(1)
        _ = state.apply(.setVolume(1.5))
        #expect(state.limiter.limiter == nil, "not mid-sound: it would click")
        // The next block dips the master gain to silence; at the bottom the limiter goes in and
        // the gain returns where it was.
        state.pursueLimiter()
        #expect(state.master.target == 0 && state.master.completion == .insertLimiter)
        while state.master.isRamping { _ = state.master.next() }
        let fadeOutEnded = state.masterRampEnded()
        #expect(!fadeOutEnded)
        #expect(state.limiter.limiter != nil)
        #expect(state.master.target == 1 && state.master.isRamping)
    }

    @Test func anInstalledDeckTakesTheListenersSettings() {
        var state = Self.state()
        _ = state.apply(.setSpeed(1.5))
        let file = Self.deck(.a, load: 1), live = Self.deck(.b, load: 2, kind: .liveStream)
        _ = state.apply(.expectLoad(.a, LoadID(1)))
        _ = state.apply(.install(file))
        _ = state.apply(.expectLoad(.b, LoadID(2)))
        _ = state.apply(.install(live))
        #expect(file.rate == 1.5)
        #expect(live.rate == 1, "a live stream keeps its speed")
        _ = state.apply(.setSpeed(0.8))
        #expect(file.rate == 0.8)
    }

    @Test func aLoadFromARecordingIsToldBeforeItIsLoaded() {
        var state = Self.state()
        let track = Track(id: "hls", url: URL(string: "http://radio.invalid/live.m3u8")!, kind: .liveStream)
        let deck = Deck(node: .a, loadID: LoadID(7), track: track, decoder: RecordingDecoder(), startAt: 0, lookaheadFrames: 4_800)
        _ = state.apply(.expectLoad(.a, LoadID(7)))
        #expect(state.apply(.install(deck)) == [.loadIsRecording(LoadID(7)), .loaded(LoadID(7), duration: 2)])
    }
}

/// A live address that holds a finished recording (an HLS playlist with an end) of 2 s.
private final class RecordingDecoder: AudioDecoder, @unchecked Sendable {
    var duration: Double? { 2 }
    var skippedCorruptPackets: Int { 0 }
    var isFiniteRecording: Bool { true }
    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(PlaybackError) -> Int { 0 }
    func seek(to seconds: Double) throws(PlaybackError) {}
}
