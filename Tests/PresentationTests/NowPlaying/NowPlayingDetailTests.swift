import Foundation
import PlayerCore
import PresentationFixtures
import Presentation
import Testing

@Suite struct NowPlayingDetailTests {
    // MARK: Titles

    @Test func episodeShowsEpisodeAndPodcastTitles() {
        let context = PlaybackContext(episode: Samples.episode, language: .english)
        let view = NowPlayingViewState(state: .playing(track: Samples.episodeTrack), context: context)
        #expect(view.title == "Episode 42: Resilience")
        #expect(view.subtitle == "The Swift Show")
    }

    @Test func stationShowsItsNameOnceAndTheGenre() {
        let context = PlaybackContext(station: Samples.station, language: .english)
        let view = NowPlayingViewState(state: .playing(track: Samples.station.track), context: context)
        #expect(view.title == "FIP")
        #expect(view.subtitle == "Eclectic")
    }

    @Test func aStationsAnnouncedTitleIsShownOverArtistAndStation() {
        var now = NowPlayingMetadata(title: "So What", artist: "Miles Davis", station: "FIP", artwork: .real)
        var context = PlaybackContext(station: Samples.station, language: .english, nowPlaying: now)
        var view = NowPlayingViewState(state: .playing(track: Samples.station.track), context: context)
        #expect(view.title == "So What")
        #expect(view.subtitle == "Miles Davis · FIP")
        // A title without an artist: the station alone below it.
        now.artist = nil
        context.nowPlaying = now
        view = NowPlayingViewState(state: .playing(track: Samples.station.track), context: context)
        #expect(view.subtitle == "FIP")
        // A file ignores stream metadata.
        view = NowPlayingViewState(state: .playing(track: Samples.song), context: context)
        #expect(view.title == "Song A")
    }

    @Test func fileShowsArtistAndAlbum() {
        let view = NowPlayingViewState(state: .playing(track: Samples.song), context: Samples.context(.english))
        #expect(view.title == "Song A")
        #expect(view.subtitle == "Artist A · Album A")
        let artistOnly = NowPlayingViewState(state: .playing(track: Samples.next), context: Samples.context(.english))
        #expect(artistOnly.subtitle == "Artist B")
    }

    @Test func idleSaysNothingPlaying() {
        #expect(NowPlayingViewState(state: .idle, context: Samples.context(.english)).title == "Nothing playing")
        #expect(NowPlayingViewState(state: .idle, context: Samples.context(.russian)).title == "Ничего не играет")
    }

    // MARK: Progress

    @Test func episodeProgressIsPositionOverDuration() throws {
        let context = PlaybackContext(episode: Samples.episode, position: 754, duration: 3600, language: .english)
        let view = NowPlayingViewState(state: .playing(track: Samples.episodeTrack), context: context)
        let progress = try #require(view.progress)
        #expect(!progress.isLive)
        let fraction: Double = try #require(progress.fraction)
        let expected: Double = 754.0 / 3600.0
        #expect(abs(fraction - expected) < 1e-12)
        #expect(progress.timeText == "12:34 / 1:00:00")
        #expect(progress.bufferFill == nil)
    }

    @Test func pausedPositionComesFromTheState() throws {
        let context = PlaybackContext(position: 10, language: .english)
        let view = NowPlayingViewState(state: .paused(track: Samples.song, position: 120), context: context)
        let progress = try #require(view.progress)
        #expect(progress.position == 120)
        #expect(progress.fraction == 0.5)
        #expect(progress.timeText == "2:00 / 4:00")
    }

    @Test func liveStreamShowsLiveAndBufferFill() throws {
        let state = PlayerState.buffering(track: Samples.station.track, progress: 0.4, reason: .initial)
        let en = try #require(NowPlayingViewState(state: state, context: Samples.context(.english)).progress)
        #expect(en.isLive)
        #expect(en.liveLabel == "LIVE")
        #expect(en.fraction == nil)
        #expect(en.timeText == nil)
        #expect(abs(try #require(en.bufferFill) - 0.4) < 1e-9)
        #expect(en.bufferText == "Buffer 40%")
        let ru = try #require(NowPlayingViewState(state: state, context: Samples.context(.russian)).progress)
        #expect(ru.liveLabel == "ЭФИР")
        #expect(ru.bufferText == "Буфер 40%")
    }

    @Test func playingLiveHasNoBufferFill() throws {
        let progress = try #require(
            NowPlayingViewState(state: .playing(track: Samples.station.track), context: Samples.context(.english)).progress)
        #expect(progress.isLive)
        #expect(progress.bufferFill == nil)
    }

    // MARK: Still connecting

    @Test func stillConnectingAfterTheThreshold() {
        let state = PlayerState.preparing(track: Samples.episodeTrack)
        let context = Samples.context(.english)
        #expect(!NowPlayingViewState(state: state, context: context, preparingElapsed: nil).isStillConnecting)
        #expect(!NowPlayingViewState(state: state, context: context, preparingElapsed: 2.9).isStillConnecting)
        let late = NowPlayingViewState(state: state, context: context, preparingElapsed: 3)
        #expect(late.isStillConnecting)
        #expect(late.stillConnectingText == "Still connecting…")
        let custom = NowPlayingViewState(
            state: state, context: context, preparingElapsed: 5, stillConnectingThreshold: 6)
        #expect(!custom.isStillConnecting)
        let ru = NowPlayingViewState(state: state, context: Samples.context(.russian), preparingElapsed: 10)
        #expect(ru.stillConnectingText == "Всё ещё подключаемся…")
    }

    @Test func stillConnectingOnlyWhilePreparing() {
        let view = NowPlayingViewState(
            state: .playing(track: Samples.song), context: Samples.context(.english), preparingElapsed: 60)
        #expect(!view.isStillConnecting)
        #expect(view.stillConnectingText == nil)
    }

    // MARK: Controls

    @Test func playPauseToggleFollowsAllowedActions() throws {
        func toggle(_ state: PlayerState) throws -> ControlViewState {
            try #require(NowPlayingViewState(state: state, context: Samples.context(.english)).controls.first)
        }
        #expect(try toggle(.playing(track: Samples.song)).action == .pause)
        #expect(try toggle(.paused(track: Samples.song, position: 3)).action == .resume)
        #expect(try toggle(.idle).action == .play)
        let fading = try toggle(.fadingOut(track: Samples.song, targetDuration: 2))
        #expect(fading.action == .pause)
        #expect(!fading.isEnabled)
        let preparing = try toggle(.preparing(track: Samples.song))
        #expect(preparing.action == .play)
        #expect(!preparing.isEnabled)
    }

    @Test func liveStreamCannotSeek() {
        let view = NowPlayingViewState(state: .playing(track: Samples.station.track), context: Samples.context(.english))
        let seeks = view.controls.filter { $0.action == .seek }
        #expect(seeks.map(\.control) == [.seekBackward, .seekForward])
        #expect(seeks.allSatisfy { !$0.isEnabled })
        #expect(seeks.map(\.seekOffset) == [-15, 30])
    }

    @Test func reconnectOffersRetryNowAndCancel() {
        let state = PlayerState.reconnecting(
            track: Samples.station.track, attempt: 2, maxAttempts: 8, nextRetryAt: Samples.now + 2.1, cause: Samples.network)
        let view = NowPlayingViewState(state: state, context: Samples.context(.english))
        #expect(view.enabledActions == [.retryNow, .cancelRetry, .pause, .stop])
        #expect(view.controls.first { $0.control == .retryNow }?.title == "Retry now")
    }

    @Test func offlineBannerInNowPlaying() {
        let offline = NowPlayingViewState(state: .idle, context: Samples.context(.english, connectivity: .offline))
        #expect(offline.connectivityBanner.isVisible)
        let online = NowPlayingViewState(state: .idle, context: Samples.context(.english, connectivity: .online))
        #expect(!online.connectivityBanner.isVisible)
    }
}
