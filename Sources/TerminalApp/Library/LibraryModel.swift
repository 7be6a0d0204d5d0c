import Foundation
import Library
import PlayerCore
import Presentation
import Services
import TerminalUI

/// What a library row stands for.
enum LibraryEntry: Sendable {
    case station(StationRecord)
    case podcast(PodcastRecord)
    case episode(EpisodeRecord)
    case session(SessionRecord)
    /// A station the directory found (not in the library unless kept with `a`).
    case found(DirectoryStation)
    /// A title heard on a station.
    case heard(HeardTitle)
    /// A song the listener liked.
    case favourite(FavouriteSong)
    /// An entry of the queue.
    case queued(QueueEntryRecord)
    /// An episode, or a line of its transcript, the library search found (a podcast it found is
    /// listed as `.podcast`).
    case hit(LibrarySearchHit)
    /// An artist of the music index with every song of theirs in play order (albums by year,
    /// then songs without an album): Enter opens their albums, `a` queues them all.
    case artist(String, songs: [MusicSongRecord])
    /// An album of the music index, with its songs in play order.
    case album(MusicAlbum)
    /// A song of the music index, with the album it plays in (nil when it has no album tag:
    /// then it plays alone).
    case song(MusicSongRecord, album: MusicAlbum?)
}

extension LibraryEntry {
    /// True when both stand for the same station, podcast or session of the library.
    func isSameItem(as other: LibraryEntry) -> Bool {
        switch (self, other) {
        case (.station(let a), .station(let b)): a.id == b.id
        case (.podcast(let a), .podcast(let b)): a.id == b.id
        case (.session(let a), .session(let b)): a.id == b.id
        default: false
        }
    }

    /// What removing it from the library takes away, by name: nil for what cannot be removed here.
    var removableName: String? {
        switch self {
        case .station(let record): record.name
        case .podcast(let record): record.title
        case .session(let record): record.name
        default: nil
        }
    }

    /// The artist's name or the album's title: the Music tab's level it opens.
    var musicTitle: String? {
        switch self {
        case .artist(let name, _): name
        case .album(let album): album.title
        default: nil
        }
    }

    /// What it is, for the log (which never names it).
    var kind: String {
        switch self {
        case .station: "station"
        case .podcast: "podcast"
        case .session: "session"
        default: "other"
        }
    }
}

/// The library screen's view model, with the library's records as its entries.
typealias LibraryModel = LibraryViewModel<LibraryEntry>

extension LibraryViewModel where Entry == LibraryEntry {
    func screen(language: Language, bindings: KeyBindings, tick: Int) -> LibraryScreen {
        let context = PlaybackContext(connectivity: player.connectivity, now: player.now, language: language, nowPlaying: player.metadata)
        let mini = player.started ? MiniPlayerViewState(state: player.state, context: context) : nil
        return LibraryScreen(
            tab: tab, list: list, episodesOf: episodesOf?.title, directoryQuery: directoryQuery, libraryQuery: libraryQuery, selection: selection, search: search, diagnostics: diagnostics,
            retries: retries, miniPlayer: mini, connectivity: player.connectivity,
            alert: alert.map { ErrorAlertViewState(error: $0, language: language, operation: alertOperation) },
            prompt: prompt, confirmation: confirmation?.question, undo: pendingRemoval?.name, musicPath: musicPath.map(\.title),
            musicIndexing: musicIndexing, missingMusicFolder: missingMusicFolder, notice: notice, language: language,
            bindings: bindings, spinnerTick: tick)
    }
}
