import PlayerCore
import Presentation
import TerminalUI

extension NowPlayingModel {
    /// Now Playing for this model: the view state, the artwork drawn from its thumbnail with its
    /// average colour as accent, and the inline error.
    func screen(language: Language, bindings: KeyBindings, tick: Int) -> NowPlayingScreen {
        let picture = metadata?.picture
        var screen = NowPlayingScreen(
            view: view(language: language), artwork: picture.flatMap(ArtworkPixels.init),
            accent: picture.map(TerminalColor.accent) ?? .indexed(39),
            inlineError: inlineError.map { InlineErrorViewState(error: $0, language: language) }, language: language, bindings: bindings,
            spinnerTick: tick, volumeText: volumeText(language: language), sleepText: sleepText(language: language),
            speedText: speedText(language: language), loudnessText: loudnessText(language: language),
            likedText: liked ? "♥ " + Texts.string("terminal.liked", in: language) : nil,
            connection: connectionText(language: language).map { ($0, connection?.rating ?? .good) },
            chapters: chapterView(language: language), showsChapterList: showsChapters, layers: layersView(language: language))
        if showsTranscript { screen.transcript = transcriptView(language: language) }
        screen.sharedText = shared.map { Texts.string("terminal.shared", in: language) + ": " + $0 }
        screen.adviceText = keepsDroppingText(language: language)
        return screen
    }
}
