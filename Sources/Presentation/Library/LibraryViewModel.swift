import Foundation
import PlayerCore

/// What the library screen shows, as plain data a key handler changes and a drawing thread reads:
/// the tab, its list (through the `ListScreenState` reducer), the search, the prompt, the alert,
/// the diagnostics, and what the player said (`NowPlayingModel`). `Entry` is what a row stands
/// for (a station, a podcast, an episode, a session), kept beside the rows so Enter knows what
/// a row is; this layer never looks inside it.
package struct LibraryViewModel<Entry: Sendable>: Sendable {
    package var tab: LibraryTab = .stations
    package var list: ListScreenState<LibraryRow> = .initial
    package var entries: [Entry] = []
    /// The podcast whose episodes are listed, and its title.
    package var episodesOf: (entry: Entry, title: String)?
    /// The directory search whose results the Stations tab lists instead of the library's stations.
    package var directoryQuery: String?
    /// The library search (titles, notes, transcripts) whose hits the Podcasts tab lists instead
    /// of the podcasts: `/`, words, then Enter.
    package var libraryQuery: String?
    /// Where the Music tab is: the artist opened, then the album opened in it (each with its
    /// title for the heading); empty for the artists themselves. Back pops one level.
    package var musicPath: [(entry: Entry, title: String)] = []
    /// How far an update of the music index started from this screen is; nil when none runs.
    package var musicIndexing: MusicIndexProgress?
    /// The music folder the screen plays from and indexes, as the listener knows it (`~/Music`),
    /// when it is not there: the empty Music tab names it and says how to give another.
    package var missingMusicFolder: String?
    /// A one-line note over the hints ("Up next: Night Ferry"), gone at the next key.
    package var notice: String?
    /// Counts directory searches, so the answer of one the listener has left is dropped.
    package var directorySearches = 0
    package var selection = 0
    package var search: String?
    package var typingSearch = false
    package var prompt: (label: String, text: String)?
    /// What Enter in the prompt does.
    package var promptPurpose = PromptPurpose.add
    package var alert: PlaybackError?
    /// What the alert's error interrupted, for its wording.
    package var alertOperation: ErrorOperation = .playback
    package var diagnostics: ErrorAnalyticsSummary?
    package var retries: RetryStatisticsSummary?
    package var helpShown = false
    /// A removal waiting for the listener's yes: the question (which names what goes) and the entry.
    package var confirmation: (question: String, entry: Entry)?
    /// What was removed last while the screen is open, with its name: hidden from the lists and
    /// removed from the library only when the screen closes (or at the next removal), so Undo
    /// brings it back whole (a podcast with its episodes, places and downloads).
    package var pendingRemoval: (entry: Entry, name: String)?
    /// The full Now Playing screen is open (after Enter on something to play).
    package var nowPlayingOpen = false
    package var player = NowPlayingModel()
    /// Bumped on every change, so the drawing loop redraws only when something changed.
    package private(set) var version = 0

    package enum PromptPurpose: Sendable, Equatable {
        /// Adds what is typed to the current tab (a station's name and address, a feed).
        case add
        /// Searches the station directory for what is typed.
        case findStations
        /// Renames the station with this id to what is typed.
        case rename(Int64)
    }

    package init() {}

    package mutating func changed() { version += 1 }

    /// Fills the current tab with `loaded` (rows and what they stand for) through the list
    /// reducer; a failure keeps the entries shown before and puts the list in its error state.
    package mutating func reload(_ loaded: Result<[(LibraryRow, Entry)], PlaybackError>) {
        list = list.startLoading()
        entries = (try? loaded.get().map(\.1)) ?? entries
        list = list.finishLoading(loaded.map { $0.map(\.0) })
        selection = min(selection, max(0, list.items.count - 1))
        changed()
    }

    /// The rows the search leaves.
    package var visibleRows: [LibraryRow] { LibraryRow.visible(in: list, search: search) }

    /// The entry under the selection, among the rows the search leaves.
    package var selectedEntry: Entry? {
        let visible = LibraryRow.visibleIndices(in: list, search: search)
        guard visible.indices.contains(selection), entries.indices.contains(visible[selection]) else { return nil }
        return entries[visible[selection]]
    }

    /// Moves the selection by `step` rows, within the visible ones.
    package mutating func moveSelection(by step: Int) {
        selection = max(0, min(visibleRows.count - 1, selection + step))
        changed()
    }
}
