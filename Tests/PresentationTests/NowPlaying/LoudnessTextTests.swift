import Foundation
import PlayerCore
import Presentation
import Testing

/// What Now Playing says about loudness levelling, in both languages.
@Suite struct LoudnessTextTests {
    private func model(_ levelling: LoudnessLevelling, gain: Double?) -> NowPlayingModel {
        var model = NowPlayingModel()
        model.apply(.loudness(levelling, trackGain: gain, audioTime: 0))
        return model
    }

    @Test func theModeAndTheGainAreShownWhileOn() {
        #expect(model(LoudnessLevelling(mode: .track), gain: -4.5).loudnessText(language: .english) == "Level track −4.5 dB")
        #expect(model(LoudnessLevelling(mode: .session), gain: 2).loudnessText(language: .english) == "Level session +2.0 dB")
        #expect(model(LoudnessLevelling(mode: .track), gain: nil).loudnessText(language: .english) == "Level track (adaptive)")
        #expect(model(LoudnessLevelling(mode: .track), gain: -4.5).loudnessText(language: .russian) == "Громкость выровнена по записи: −4.5 дБ")
        #expect(model(LoudnessLevelling(mode: .session), gain: nil).loudnessText(language: .russian) == "Громкость выравнивается по сессии (на ходу)")
    }

    @Test func offSaysNothing() {
        #expect(model(.off, gain: nil).loudnessText(language: .english) == nil)
        #expect(NowPlayingModel().loudnessText(language: .english) == nil)
    }
}
