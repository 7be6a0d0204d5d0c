import PlayerCore
import Presentation

/// `--plain`: a line mode for screen readers. Each change of state is one line of sentences,
/// e.g. "Playback Error. This episode doesn't have audio available. Episode: X. Podcast: Y."
/// then "Retry available: press r." when it is. Progress and percentages are not repeated.
package struct PlainAnnouncer: Sendable {
    private var last: (name: PlayerState.Name, title: String)?
    private let language: Language
    private let bindings: KeyBindings

    package init(language: Language, bindings: KeyBindings = .standard) {
        self.language = language
        self.bindings = bindings
    }

    /// The lines to say for `view`, or none when nothing worth saying changed. A session's
    /// `layers` (its clock, next bell and bed) follow the state's sentence.
    package mutating func lines(for view: NowPlayingViewState, layers: SessionLayersViewState? = nil) -> [String] {
        if let last, last.name == view.stateName, last.title == view.title { return [] }
        last = (view.stateName, view.title)
        guard let error = view.errorView else { return [view.spokenText] + (layers.map { [$0.spokenText] } ?? []) }
        var lines = [error.spokenDescription]
        if error.retry != nil, let key = bindings.primaryKey(.retry) {
            lines.append(TerminalStrings.retryAvailable(key: key.description, in: language))
        }
        return lines
    }

    /// A bell as it sounds, then where the session is: "Bell at 5:00. Elapsed 5:00. 15:00 left.
    /// Next bell in 5:00."
    package func lines(forBell strike: BellStrike, layers: SessionLayersViewState?) -> [String] {
        [SessionLayersViewState.spokenBell(strike, layers: layers, language: language)]
    }
}
