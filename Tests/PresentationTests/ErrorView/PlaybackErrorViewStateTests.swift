import Foundation
import PlayerCore
import PresentationFixtures
import Presentation
import Testing

/// The error view's two scenarios (an episode without audio, a network error) and its lifetime.
@Suite struct PlaybackErrorViewStateTests {
    /// Scenario 1: an episode without audio URL fails for good.
    func missingURLState() throws -> (PlaybackError, PlayerState) {
        let thrown = #expect(throws: PlaybackError.self) { try Samples.episodeWithoutAudio.track() }
        let error = try #require(thrown)
        #expect(error.code == .missingAudioURL)
        #expect(!error.isRecoverable)
        return (error, .failed(error: error, recoverable: false, resumePoint: nil))
    }

    @Test func missingAudioURLShowsErrorWithoutRetry() throws {
        let (error, state) = try missingURLState()
        let context = PlaybackContext(episode: Samples.episodeWithoutAudio, language: .english)
        let now = NowPlayingViewState(state: state, context: context)
        let view = try #require(now.errorView)
        #expect(now.controlsHidden)
        #expect(now.controls.isEmpty)
        #expect(view.title == "Playback Error")
        #expect(view.icon.symbolName == "exclamationmark.triangle.fill")
        #expect(view.icon.glyph == "⚠")
        #expect(view.message == error.message(in: .english))
        #expect(view.message == "This episode doesn't have audio available")
        #expect(view.recoverySuggestion == error.recoverySuggestion(in: .english))
        #expect(view.retry == nil)
        #expect(!view.isRecoverable)
        #expect(view.contextLines == ["Episode 43: Silence", "The Swift Show"])
        #expect(view.context.map(\.kind) == [.episode, .podcast])
        #expect(view.accessibilityIdentifier == "ExpandedPlayer.ErrorView")
        #expect(
            view.spokenText
                == "Playback Error. This episode doesn't have audio available. Episode: Episode 43: Silence. Podcast: The Swift Show.")
        #expect(!view.spokenText.contains("Retry"))
    }

    @Test func missingAudioURLInRussian() throws {
        let (error, state) = try missingURLState()
        let context = PlaybackContext(episode: Samples.episodeWithoutAudio, language: .russian)
        let view = try #require(PlaybackErrorViewState(state: state, context: context))
        #expect(view.title == "Ошибка воспроизведения")
        #expect(view.message == error.message(in: .russian))
        #expect(view.retry == nil)
        #expect(view.spokenText.hasPrefix("Ошибка воспроизведения. "))
        #expect(view.spokenText.hasSuffix("Выпуск: Episode 43: Silence. Подкаст: The Swift Show."))
    }

    /// Scenario 2: a network error while playing an episode at 754 s of 3600 s.
    func networkState() -> PlayerState {
        .failed(
            error: PlaybackError(.connectionFailed), recoverable: true,
            resumePoint: ResumePoint(track: Samples.episodeTrack, position: 754, duration: 3600))
    }

    @Test func networkErrorOffersRetryAtTheSavedPosition() throws {
        let state = networkState()
        #expect(state.allows(.retry))
        let context = PlaybackContext(episode: Samples.episode, language: .english)
        let view = try #require(NowPlayingViewState(state: state, context: context).errorView)
        let retry = try #require(view.retry)
        #expect(view.isRecoverable)
        #expect(retry.label == "Retry Playback")
        #expect(retry.accessibilityIdentifier == "ExpandedPlayer.RetryButton")
        #expect(retry.action == .retry)
        #expect(retry.resumePosition == 754)
        #expect(retry.resumeDuration == 3600)
        #expect(retry.resumeText == "Retry resumes at 12:34")
        #expect(view.message == PlaybackError(.connectionFailed).message(in: .english))
        #expect(view.contextLines == ["Episode 42: Resilience", "The Swift Show"])
        #expect(view.spokenText.hasPrefix("Playback Error. "))
        #expect(view.spokenText.hasSuffix("Podcast: The Swift Show. Retry Playback button available."))
    }

    @Test func networkErrorInRussian() throws {
        let context = PlaybackContext(episode: Samples.episode, language: .russian)
        let view = try #require(PlaybackErrorViewState(state: networkState(), context: context))
        let retry = try #require(view.retry)
        #expect(retry.label == "Повторить")
        #expect(retry.resumeText == "Повтор продолжит с 12:34")
        #expect(view.spokenText.hasSuffix(" Доступна кнопка «Повторить»."))
    }

    @Test func contextComesFromTheResumePointWithoutAnEpisode() throws {
        let view = try #require(PlaybackErrorViewState(state: networkState(), context: Samples.context(.english)))
        #expect(view.contextLines == ["Episode 42: Resilience", "The Swift Show"])
    }

    @Test func stationFailureNamesTheStation() throws {
        let state = PlayerState.failed(
            error: PlaybackError(.streamUnavailable), recoverable: true,
            resumePoint: ResumePoint(track: Samples.station.track, position: 99))
        let context = PlaybackContext(station: Samples.station, language: .english)
        let view = try #require(PlaybackErrorViewState(state: state, context: context))
        #expect(view.context.map(\.labelled) == ["Station: FIP"])
        #expect(view.retry?.resumePosition == 0)
        #expect(view.retry?.resumeText == "Retry rejoins the live broadcast")
    }

    @Test func recoverableWithoutResumePointOffersNoRetry() throws {
        // Invalid state (isValid is false), but the button must not offer what the machine refuses.
        let state = PlayerState.failed(error: Samples.network, recoverable: true, resumePoint: nil)
        #expect(!state.allows(.retry))
        let view = try #require(PlaybackErrorViewState(state: state, context: Samples.context(.english)))
        #expect(view.retry == nil)
    }

    @Test func errorViewClearsWhenANewEpisodeStarts() throws {
        let failed = NowPlayingViewState(state: networkState(), context: PlaybackContext(episode: Samples.episode))
        #expect(failed.errorView != nil)
        let newEpisode = Episode(
            id: "ep44", title: "Episode 44", podcastTitle: "The Swift Show",
            audioURL: URL(string: "https://cdn.example.com/ep44.mp3"))
        let next = NowPlayingViewState(
            state: .preparing(track: try newEpisode.track()), context: PlaybackContext(episode: newEpisode))
        #expect(next.errorView == nil)
        #expect(!next.controlsHidden)
        #expect(!next.controls.isEmpty)
        #expect(next.title == "Episode 44")
    }

    @Test(arguments: Samples.states)
    func builtOnlyForFailed(_ sample: Sample) {
        let view = PlaybackErrorViewState(state: sample.state, context: Samples.context(.english))
        #expect((view != nil) == (sample.state.name == .failed))
    }
}
