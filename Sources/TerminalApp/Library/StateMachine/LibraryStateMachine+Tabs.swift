import Presentation
import TerminalUI

extension LibraryStateMachine {
    /// Tab and the left and right arrows: the next or previous tab, from its top, unfiltered.
    mutating func switchTab(by step: Int) -> [LibraryEffect] {
        let all = LibraryScreen.Tab.allCases
        model.tab = all[(all.firstIndex(of: model.tab)! + step + all.count) % all.count]
        model.episodesOf = nil
        model.directoryQuery = nil
        model.libraryQuery = nil
        model.musicPath = []
        musicReturnTo = nil
        model.search = nil
        model.selection = 0
        model.list = .initial
        return model.tab == .diagnostics ? [.reload, .loadDiagnostics] : [.reload]
    }

    /// Esc and Backspace: Now Playing closes, else the search ends, else the directory's results,
    /// the library search's hits or a podcast's episodes give way to the list they came from, and
    /// on the Music tab an album's songs to the artist's albums, those to the artists.
    mutating func back() -> [LibraryEffect] {
        var effects: [LibraryEffect] = []
        if model.nowPlayingOpen {
            model.nowPlayingOpen = false
        } else if model.search != nil {
            model.search = nil
        } else if model.directoryQuery != nil {
            model.directoryQuery = nil
            model.entries = []
            model.selection = 0
            model.list = .initial
            effects = [.reload]
        } else if model.episodesOf != nil {
            // A podcast opened from the search's hits goes back to the hits.
            model.episodesOf = nil
            model.selection = 0
            effects = [.reload]
        } else if model.libraryQuery != nil {
            model.libraryQuery = nil
            model.selection = 0
            model.list = .initial
            effects = [.reload]
        } else if model.tab == .music, musicLevelUp() {
            effects = [.reload]
        }
        model.changed()
        return effects
    }
}
