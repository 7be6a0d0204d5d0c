import Foundation
import PlayerCore
import Presentation
import Services
import TerminalUI

extension LibraryStateMachine {
    /// `f` anywhere, or `/` on an empty station list: the Stations tab with the directory's prompt.
    mutating func openDirectoryPrompt() -> [LibraryEffect] {
        var effects: [LibraryEffect] = []
        if model.tab != .stations {
            model.tab = .stations
            model.episodesOf = nil
            model.search = nil
            model.selection = 0
            model.list = .initial
            effects = [.reload]
        }
        model.prompt = (TerminalStrings.prompt(.directory, in: language), "")
        model.promptPurpose = .findStations
        model.changed()
        return effects
    }

    /// Lists what the directory finds for `text` (its loading, error and empty states are the
    /// list's own); the search runs while the screen goes on.
    mutating func findStations(_ text: String) -> [LibraryEffect] {
        model.directoryQuery = text.trimmingCharacters(in: .whitespaces)
        model.directorySearches += 1
        model.entries = []
        model.selection = 0
        model.list = ListScreenState<LibraryRow>.initial.startLoading()
        model.changed()
        return [.searchDirectory(StationQuery.parse(text), search: model.directorySearches)]
    }

    /// The directory answered: its stations are the list, or its error the list's error, unless
    /// the listener has left the results meanwhile or searched again.
    mutating func directoryAnswered(search: Int, _ found: Result<[DirectoryStation], PlaybackError>) -> [LibraryEffect] {
        var effects: [LibraryEffect] = []
        if case .failure(let error) = found { effects.append(.record(error, operation: "directorySearch")) }
        guard model.directoryQuery != nil, model.directorySearches == search, model.tab == .stations else { return effects }
        switch found {
        case .success(let stations):
            model.entries = stations.map(LibraryEntry.found)
            effects.append(.reload)
        case .failure(let error):
            model.reload(.failure(error))
        }
        return effects
    }

    /// `a` on a directory result: keeps it in the library (with its directory id).
    mutating func keepFoundStation() -> [LibraryEffect] {
        guard case .found(let station)? = model.selectedEntry else { return [] }
        return [.change(.addFoundStation(station))]
    }
}
