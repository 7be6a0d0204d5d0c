import Foundation
import Library
import PlayerCore
import Presentation
import TerminalUI

/// What the library screen shows, as plain data the key handler changes and the drawing thread
/// reads. Lists go through the `ListScreenState` reducer; records stay beside their rows so
/// Enter knows what a row is.
struct LibraryModel: Sendable {
    enum Entry: Sendable {
        case station(StationRecord)
        case podcast(PodcastRecord)
        case episode(EpisodeRecord)
        case session(SessionRecord)
    }

    var tab: LibraryScreen.Tab = .stations
    var list: ListScreenState<LibraryScreen.Row> = .initial
    var entries: [Entry] = []
    var episodesOf: PodcastRecord?
    var selection = 0
    var search: String?
    var typingSearch = false
    var prompt: (label: String, text: String)?
    var alert: PlaybackError?
    /// What the alert's error interrupted, for its wording.
    var alertOperation: ErrorOperation = .playback
    var diagnostics: ErrorAnalyticsSummary?
    var retries: RetryStatisticsSummary?
    var helpShown = false
    /// The full Now Playing screen is open (after Enter on something to play).
    var nowPlayingOpen = false
    var player = NowPlayingModel()
    var version = 0

    mutating func changed() { version += 1 }

    /// Fills the current tab from the store through the list reducer.
    mutating func reload(_ store: LibraryStore, analytics: ErrorAnalytics?) {
        list = list.startLoading()
        let result: Result<[(LibraryScreen.Row, Entry)], PlaybackError>
        do throws(PlaybackError) {
            result = .success(try rows(store))
        } catch {
            result = .failure(error)
            if let analytics { Task { await analytics.record(error, operation: "loadLibrary") } }
        }
        entries = (try? result.get().map(\.1)) ?? entries
        list = list.finishLoading(result.map { $0.map(\.0) })
        selection = min(selection, max(0, list.items.count - 1))
        changed()
    }

    private func rows(_ store: LibraryStore) throws(PlaybackError) -> [(LibraryScreen.Row, Entry)] {
        switch tab {
        case .stations:
            return try store.stations().map { (LibraryScreen.Row(title: $0.name, detail: $0.genre), .station($0)) }
        case .podcasts:
            if let podcast = episodesOf {
                return try store.episodes(podcastID: podcast.id).map { episode in
                    let detail = episode.played ? "✓" : episode.position > 0
                        ? "\(TimeText.clock(episode.position))\(episode.duration.map { " / \(TimeText.clock($0))" } ?? "")"
                        : episode.duration.map(TimeText.clock)
                    return (LibraryScreen.Row(title: episode.title, detail: detail), .episode(episode))
                }
            }
            return try store.podcasts().map { (LibraryScreen.Row(title: $0.title, detail: "\($0.unplayedCount)/\($0.episodeCount)"), .podcast($0)) }
        case .sessions:
            return try store.sessions().map { (LibraryScreen.Row(title: $0.name, detail: "\($0.stageCount)"), .session($0)) }
        case .diagnostics:
            return []
        }
    }

    /// The entry under the selection, among the rows the search leaves.
    func selectedEntry(screen: LibraryScreen) -> Entry? {
        let visible = screen.visibleItems
        guard visible.indices.contains(selection) else { return nil }
        let row = visible[selection]
        guard let index = list.items.firstIndex(of: row), entries.indices.contains(index) else { return nil }
        return entries[index]
    }

    func screen(language: Language, bindings: KeyBindings, tick: Int) -> LibraryScreen {
        let context = PlaybackContext(connectivity: player.connectivity, now: player.now, language: language, nowPlaying: player.metadata)
        let mini = player.started ? MiniPlayerViewState(state: player.state, context: context) : nil
        return LibraryScreen(
            tab: tab, list: list, episodesOf: episodesOf?.title, selection: selection, search: search, diagnostics: diagnostics, retries: retries,
            miniPlayer: mini, connectivity: player.connectivity, alert: alert.map { ErrorAlertViewState(error: $0, language: language, operation: alertOperation) },
            prompt: prompt, language: language, bindings: bindings, spinnerTick: tick)
    }
}
