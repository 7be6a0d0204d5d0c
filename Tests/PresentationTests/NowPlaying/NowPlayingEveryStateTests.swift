import Foundation
import PlayerCore
import PresentationFixtures
import Presentation
import Testing

/// A view state for every `PlayerState` case, in both languages.
@Suite struct NowPlayingEveryStateTests {
    @Test(arguments: Samples.states, Language.allCases)
    func statusAndColourComeFromTheState(_ sample: Sample, _ language: Language) {
        let state = sample.state
        let view = NowPlayingViewState(state: state, context: Samples.context(language))
        #expect(!view.statusText.isEmpty)
        #expect(view.statusText == state.statusText(in: language, now: Samples.now))
        #expect(view.displayText == state.displayText(in: language, now: Samples.now))
        #expect(view.indicatorColor == state.indicatorColor)
        #expect(view.showsSpinner == state.showsLoading)
        #expect(!view.title.isEmpty)
        #expect(view.stateName == state.name)
        #expect(!view.spokenText.isEmpty)
    }

    @Test(arguments: Samples.states, Language.allCases)
    func enabledControlsAreExactlyTheAllowedActions(_ sample: Sample, _ language: Language) {
        let state = sample.state
        let view = NowPlayingViewState(state: state, context: Samples.context(language))
        if case .failed = state {
            #expect(view.controlsHidden)
            #expect(view.controls.isEmpty)
            return
        }
        #expect(!view.controlsHidden)
        #expect(view.controls.map(\.control) == PlayerControl.allCases)
        let enabled = Set(view.controls.filter(\.isEnabled).map(\.action))
        #expect(enabled == Set(state.allowedActions))
        for control in view.controls {
            #expect(control.isEnabled == state.allows(control.action))
            #expect(!control.title.isEmpty)
        }
    }

    @Test(arguments: Samples.states, Language.allCases)
    func errorViewAndHiddenControlsOnlyWhenFailed(_ sample: Sample, _ language: Language) {
        let view = NowPlayingViewState(state: sample.state, context: Samples.context(language))
        let failed = sample.state.name == .failed
        #expect((view.errorView != nil) == failed)
        #expect(view.controlsHidden == failed)
        #expect(PlaybackErrorViewState(state: sample.state, context: Samples.context(language)) == view.errorView)
    }

    @Test(arguments: Samples.states)
    func progressOnlyWhereTheStateShowsIt(_ sample: Sample) {
        let view = NowPlayingViewState(state: sample.state, context: Samples.context(.english))
        #expect((view.progress != nil) == (sample.state.showsProgress && sample.state.currentTrack != nil))
        #expect((view.crossfade != nil) == (sample.state.crossfadeProgress != nil))
        #expect((view.reconnect != nil) == (sample.state.name == .reconnecting))
        #expect((view.nextText != nil) == (sample.state.nextTrack != nil))
    }

    @Test(arguments: Samples.states)
    func russianDiffersFromEnglish(_ sample: Sample) {
        let en = NowPlayingViewState(state: sample.state, context: Samples.context(.english))
        let ru = NowPlayingViewState(state: sample.state, context: Samples.context(.russian))
        #expect(en.statusText != ru.statusText)
        #expect(en.controls.map(\.title) != ru.controls.map(\.title) || en.controls.isEmpty)
    }

    @Test func viewStateRoundTripsThroughJSON() throws {
        for sample in Samples.states {
            let view = NowPlayingViewState(state: sample.state, context: Samples.context(.russian))
            let data = try JSONEncoder().encode(view)
            #expect(try JSONDecoder().decode(NowPlayingViewState.self, from: data) == view)
        }
    }
}
