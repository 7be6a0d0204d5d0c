import Foundation
import PlayerCore
import PresentationFixtures
import Presentation
import Testing

@Suite struct MiniPlayerViewStateTests {
    let recoverable = PlayerState.failed(
        error: Samples.network, recoverable: true,
        resumePoint: ResumePoint(track: Samples.episodeTrack, position: 754, duration: 3600))
    let final = PlayerState.failed(error: Samples.missingURL, recoverable: false, resumePoint: nil)

    @Test func failedRecoverableOffersRetry() throws {
        let en = MiniPlayerViewState(state: recoverable, context: PlaybackContext(episode: Samples.episode, language: .english))
        #expect(en.isFailed)
        #expect(en.status == "Playback failed — r to retry")
        #expect(en.errorText == en.status)
        #expect(en.title == "Episode 42: Resilience")
        #expect(en.indicatorColor == .red)
        let primary = try #require(en.primaryControl)
        #expect(primary.action == .retry)
        #expect(primary.isEnabled)
        let ru = MiniPlayerViewState(state: recoverable, context: PlaybackContext(episode: Samples.episode, language: .russian))
        #expect(ru.status == "Ошибка воспроизведения — r для повтора")
    }

    @Test func failedFinalHasNoRetry() {
        let context = PlaybackContext(episode: Samples.episodeWithoutAudio, language: .english)
        let en = MiniPlayerViewState(state: final, context: context)
        #expect(en.status == "Playback failed")
        #expect(en.primaryControl == nil)
        #expect(en.title == "Episode 43: Silence")
        var ru = context
        ru.language = .russian
        #expect(MiniPlayerViewState(state: final, context: ru).status == "Ошибка воспроизведения")
    }

    @Test(arguments: Samples.states, Language.allCases)
    func primaryControlComesFromAllowedActions(_ sample: Sample, _ language: Language) {
        let view = MiniPlayerViewState(state: sample.state, context: Samples.context(language))
        #expect(!view.title.isEmpty)
        #expect(!view.status.isEmpty)
        #expect(view.indicatorColor == sample.state.indicatorColor)
        if let primary = view.primaryControl {
            #expect(primary.isEnabled == sample.state.allows(primary.action))
        }
        if sample.state.name != .failed {
            #expect(view.status == sample.state.statusText(in: language, now: Samples.now))
            #expect(view.errorText == nil)
            #expect(view.primaryControl?.control == .playPause)
        }
    }

    @Test func progressFraction() {
        let context = PlaybackContext(position: 60, language: .english)
        let view = MiniPlayerViewState(state: .playing(track: Samples.song), context: context)
        #expect(view.progressFraction == 0.25)
        #expect(view.line == "Song A — Playing")
        let live = MiniPlayerViewState(state: .playing(track: Samples.station.track), context: context)
        #expect(live.progressFraction == nil)
        #expect(live.isLive)
    }
}
