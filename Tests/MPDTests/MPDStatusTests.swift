import Foundation
import MPDProtocol
import PlayerCore
import Presentation
import Testing

@testable import MPD

/// `status` tells MPD clients the truth in MPD's words, and what MPD has no word for in
/// Tonearm's own keys.
@Suite("MPD status")
struct MPDStatusTests {
    static let song = Track(id: "mpd1/a", url: URL(fileURLWithPath: "/m/a.mp3"), kind: .file, title: "A", duration: 200)
    static let next = Track(id: "mpd2/b", url: URL(fileURLWithPath: "/m/b.mp3"), kind: .file, title: "B", duration: 100)
    static let live = Track(id: "mpd1/radio", url: URL(string: "http://radio.example/live")!, kind: .liveStream, title: "Radio")

    func fields(_ state: PlayerState, at now: Double = 0, error: PlaybackError? = nil, queue: MPDQueue? = nil) throws -> [String: String] {
        var view = MPDPlayerView()
        _ = view.apply(.state(state, audioTime: 0, now: PlayerTime(seconds: now)))
        if let error { view.error = error }
        var q = try queue ?? MPDQueueTests.queue(["a", "b"])
        q.setCurrent(1)
        let response = MPDStatus.response(queue: q, player: view, language: .english)
        return Dictionary(response.fields.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// A state asked of the player directly, ahead of the updates read so far (a reconnect that
    /// began a moment ago), comes with its error: a `status` never shows `reconnecting` without it.
    @Test func aStateTakenFromThePlayerBringsItsError() throws {
        var view = MPDPlayerView()
        _ = view.apply(.state(.playing(track: Self.live), audioTime: 0, now: .zero))
        let cause = PlaybackError(.connectionLost)
        view.adopt(.reconnecting(track: Self.live, attempt: 1, maxAttempts: 9, nextRetryAt: PlayerTime(seconds: 2), cause: cause))
        let response = MPDStatus.response(queue: try MPDQueueTests.queue(["a"]), player: view, language: .english)
        let f = Dictionary(response.fields.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        #expect(f["tonearm_state"] == "reconnecting")
        #expect(f["error"]?.isEmpty == false, "\(f)")
        #expect(f["tonearm_error_retry"] == "automatic")
        // Playing again keeps the error until a client's clearerror, as MPD does.
        view.adopt(.playing(track: Self.live))
        #expect(view.error == cause)
    }

    @Test func everyStateHasAnMPDStateAndItsOwnName() throws {
        let cases: [(PlayerState, String)] = [
            (.idle, "stop"), (.finished, "stop"), (.playing(track: Self.song), "play"), (.preparing(track: Self.song), "play"),
            (.paused(track: Self.song, position: 3), "pause"),
            (.crossfadePaused(
                fromTrack: Self.song, toTrack: Self.next, progress: 0.3, resumeStrategy: .continueFromProgress,
                savedState: CrossfadePauseSnapshot(
                    activeVolume: 0.7, inactiveVolume: 0.3, activePosition: 190, inactivePosition: 2, activePlayer: .a, originalDuration: 6,
                    curve: .equalPower, takenAt: .zero)), "pause"),
            (.buffering(track: Self.live, progress: 0.4, reason: .underrun), "play"),
            (.failed(error: PlaybackError(.fileNotFound), recoverable: false, resumePoint: nil), "stop"),
        ]
        for (state, mpd) in cases {
            let f = try fields(state)
            #expect(f["state"] == mpd, "\(state.name)")
            #expect(f["tonearm_state"] == state.name.rawValue)
        }
    }

    @Test func aReconnectIsPlayWithItsAttemptAndCountdown() throws {
        let state = PlayerState.reconnecting(
            track: Self.live, attempt: 2, maxAttempts: 8, nextRetryAt: PlayerTime(seconds: 14.5), cause: PlaybackError(.connectionLost))
        let f = try fields(state, at: 10)
        #expect(f["state"] == "play")
        #expect(f["tonearm_state"] == "reconnecting")
        #expect(f["tonearm_reconnect_attempt"] == "2")
        #expect(f["tonearm_reconnect_max"] == "8")
        #expect(f["tonearm_reconnect_in"] == "4.5")
        // The cause is told as the error, with its kind of retry.
        #expect(f["error"]?.isEmpty == false)
        #expect(f["tonearm_error_retry"] == "automatic")
    }

    @Test func aSessionsLayersAreToldAndWakeIdleOnlyWhenTheyChange() throws {
        var view = MPDPlayerView()
        _ = view.apply(.state(.playing(track: Self.song), audioTime: 0, now: .zero))
        let layers = SessionLayersStatus(
            elapsed: 62.44, length: 1_200, bed: BedStatus(phase: .ducked, level: 0.3), nextBell: BellCue(at: 300, kind: .interval), strikesRung: 1)
        #expect(view.apply(.layers(layers, audioTime: 1)) == [.player])
        var later = layers
        later.elapsed = 63
        #expect(view.apply(.layers(later, audioTime: 2)).isEmpty, "the clock's progress alone is no news")
        let f = Dictionary(MPDStatus.tonearmFields(view).fields.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        #expect(f["tonearm_session_elapsed"] == "63.0")
        #expect(f["tonearm_session_remaining"] == "1137.0")
        #expect(f["tonearm_bed"] == "ducked")
        #expect(f["tonearm_bed_level"] == "0.30")
        #expect(f["tonearm_next_bell"] == "300.0")
        #expect(f["tonearm_next_bell_kind"] == "interval")
        #expect(f["tonearm_bells_rung"] == "1")
        #expect(view.apply(.layers(nil, audioTime: 3)) == [.player])
        #expect(MPDStatus.tonearmFields(view).fields.allSatisfy { !$0.key.hasPrefix("tonearm_session") && !$0.key.hasPrefix("tonearm_bell") })
    }

    @Test func bufferAndCrossfadeProgressAreTold() throws {
        #expect(try fields(.buffering(track: Self.live, progress: 0.42, reason: .initial))["tonearm_buffer"] == "42")
        let f = try fields(.crossfading(fromTrack: Self.song, toTrack: Self.next, progress: 0.25, canQuickFinish: false))
        #expect(f["tonearm_crossfade"] == "0.25")
    }

    @Test func anErrorIsInTheListenersLanguage() throws {
        var view = MPDPlayerView()
        view.error = PlaybackError(.fileNotFound)
        let q = try MPDQueueTests.queue(["a"])
        let english = MPDStatus.response(queue: q, player: view, language: .english).fields.first { $0.key == "error" }?.value
        let russian = MPDStatus.response(queue: q, player: view, language: .russian).fields.first { $0.key == "error" }?.value
        #expect(english != nil && russian != nil && english != russian)
        #expect(english?.contains("\n") == false)
        let f = Dictionary(MPDStatus.response(queue: q, player: view, language: .english).fields.map { ($0.key, $0.value) }) { a, _ in a }
        #expect(f["tonearm_error_retry"] == "final")
    }

    @Test func songAndNextSongFollowTheQueue() throws {
        let f = try fields(.playing(track: Self.song))
        #expect(f["song"] == "0" && f["songid"] == "1")
        #expect(f["nextsong"] == "1" && f["nextsongid"] == "2")
        #expect(f["playlistlength"] == "2")
        #expect(f["audio"] == "48000:f:2")
    }

    /// mpd tells the next song under `single` too (it is where `next` goes, and where playback
    /// waits once the song has ended).
    @Test func nextSongIsToldUnderSingleAsMPDTellsIt() throws {
        var q = try MPDQueueTests.queue(["a", "b"])
        q.options.single = .on
        let single = try fields(.playing(track: Self.song), queue: q)
        #expect(single["nextsong"] == "1" && single["nextsongid"] == "2")
        q.options.repeat = true
        let repeating = try fields(.playing(track: Self.song), queue: q)
        #expect(repeating["nextsong"] == "0" && repeating["nextsongid"] == "1", "single with repeat plays the song again")
    }

    /// The options as mpd 0.23 prints them, in its order: `mixrampdb` as its `fmt` writes a float,
    /// `mixrampdelay` only when above 0, `consume oneshot` (MPD 0.24's) by name.
    @Test func optionsAreToldAsMPDTellsThem() throws {
        var q = try MPDQueueTests.queue(["a", "b"])
        let plain = try fields(.idle, queue: q)
        #expect(plain["mixrampdb"] == "0")
        #expect(plain["mixrampdelay"] == nil)
        q.options.mixRampDB = -17.5
        q.options.mixRampDelay = 2
        q.options.consume = .oneshot
        let set = try fields(.idle, queue: q)
        #expect(set["mixrampdb"] == "-17.5" && set["mixrampdelay"] == "2" && set["consume"] == "oneshot")
        q.options.mixRampDelay = .nan
        #expect(try fields(.idle, queue: q)["mixrampdelay"] == nil)
        q.options.mixRampDelay = 2
        var view = MPDPlayerView()
        _ = view.apply(.state(.playing(track: Self.song), audioTime: 0, now: .zero))
        q.setCurrent(1)
        let keys = MPDStatus.response(queue: q, player: view, language: .english).fields.map(\.key).filter { !$0.hasPrefix("tonearm_") }
        #expect(
            keys == [
                "volume", "repeat", "random", "single", "consume", "partition", "playlist", "playlistlength", "mixrampdb", "state",
                "mixrampdelay", "song", "songid", "time", "elapsed", "duration", "audio", "nextsong", "nextsongid",
            ])
    }

    @Test func progressAloneDoesNotWakeIdleClients() {
        var view = MPDPlayerView()
        #expect(view.apply(.state(.playing(track: Self.song), audioTime: 0, now: .zero)) == [.player])
        #expect(view.apply(.position(seconds: 3, duration: 200, audioTime: 3)).isEmpty)
        let fading = PlayerState.crossfading(fromTrack: Self.song, toTrack: Self.next, progress: 0.1, canQuickFinish: false)
        #expect(view.apply(.state(fading, audioTime: 3, now: .zero)) == [.player])
        let further = PlayerState.crossfading(fromTrack: Self.song, toTrack: Self.next, progress: 0.5, canQuickFinish: false)
        #expect(view.apply(.state(further, audioTime: 4, now: .zero)).isEmpty)
        #expect(view.apply(.volume(Volume(0.5), audioTime: 4)) == [.mixer])
        #expect(view.apply(.notice(.metadata(NowPlayingMetadata(title: "Song", artist: nil, station: nil, artwork: .station)), audioTime: 4)) == [.player])
    }
}
