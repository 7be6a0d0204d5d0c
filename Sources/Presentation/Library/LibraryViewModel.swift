import Foundation
import PlayerCore

/// What the library screen shows, as plain data a key handler changes and a drawing thread reads:
/// the tab, its list (through the `ListScreenState` reducer), the search, the prompt, the alert,
/// the diagnostics, and what the player said (`NowPlayingModel`). `Entry` is what a row stands
/// for (a station, a podcast, an episode, a session), kept beside the rows so Enter knows what
/// a row is; this layer never looks inside it.
public struct LibraryViewModel<Entry: Sendable>: Sendable {
    public var tab: LibraryTab = .stations
    public var list: ListScreenState<LibraryRow> = .initial
    public var entries: [Entry] = []
    /// The podcast whose episodes are listed, and its title.
    public var episodesOf: (entry: Entry, title: String)?
    /// The directory search whose results the Stations tab lists instead of the library's stations.
    public var directoryQuery: String?
    /// Counts directory searches, so the answer of one the listener has left is dropped.
    public var directorySearches = 0
    public var selection = 0
    public var search: String?
    public var typingSearch = false
    public var prompt: (label: String, text: String)?
    /// What Enter in the prompt does.
    public var promptPurpose = PromptPurpose.add
    public var alert: PlaybackError?
    /// What the alert's error interrupted, for its wording.
    public var alertOperation: ErrorOperation = .playback
    public var diagnostics: ErrorAnalyticsSummary?
    public var retries: RetryStatisticsSummary?
    public var helpShown = false
    /// A removal waiting for the listener's yes: the question (which names what goes) and the entry.
    public var confirmation: (question: String, entry: Entry)?
    /// What was removed last while the screen is open, with its name: hidden from the lists and
    /// removed from the library only when the screen closes (or at the next removal), so Undo
    /// brings it back whole (a podcast with its episodes, places and downloads).
    public var pendingRemoval: (entry: Entry, name: String)?
    /// The full Now Playing screen is open (after Enter on something to play).
    public var nowPlayingOpen = false
    public var player = NowPlayingModel()
    /// Bumped on every change, so the drawing loop redraws only when something changed.
    public private(set) var version = 0

    public enum PromptPurpose: Sendable, Equatable {
        /// Adds what is typed to the current tab (a station's name and address, a feed).
        case add
        /// Searches the station directory for what is typed.
        case findStations
        /// Renames the station with this id to what is typed.
        case rename(Int64)
    }

    public init() {}

    public mutating func changed() { version += 1 }

    /// Fills the current tab with `loaded` (rows and what they stand for) through the list
    /// reducer; a failure keeps the entries shown before and puts the list in its error state.
    public mutating func reload(_ loaded: Result<[(LibraryRow, Entry)], PlaybackError>) {
        list = list.startLoading()
        entries = (try? loaded.get().map(\.1)) ?? entries
        list = list.finishLoading(loaded.map { $0.map(\.0) })
        selection = min(selection, max(0, list.items.count - 1))
        changed()
    }

    /// The rows the search leaves.
    public var visibleRows: [LibraryRow] { LibraryRow.visible(in: list, search: search) }

    /// The entry under the selection, among the rows the search leaves.
    public var selectedEntry: Entry? {
        let visible = LibraryRow.visibleIndices(in: list, search: search)
        guard visible.indices.contains(selection), entries.indices.contains(visible[selection]) else { return nil }
        return entries[visible[selection]]
    }

    /// Moves the selection by `step` rows, within the visible ones.
    public mutating func moveSelection(by step: Int) {
        selection = max(0, min(visibleRows.count - 1, selection + step))
        changed()
    }
}
