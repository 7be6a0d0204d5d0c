import Foundation
import PlayerCore
import Presentation
import TerminalUI

/// The library screen's decisions, as a pure value: `handle(_:)` takes a key or an answer, changes
/// the screen's model and returns the effects its runner (`LibraryController`) performs: read or
/// change the library, play, download, ask the directory, refresh podcasts, record an error.
///
/// The same pattern as `PlayerStateMachine`: no terminal, store, player or clock here (a time is a
/// fact an event carries), so every decision is testable alone; the answers of the effects come
/// back as events.
struct LibraryStateMachine: Sendable {
    let language: Language
    let bindings: KeyBindings
    /// What the screen shows.
    var model = LibraryModel()
    /// True once the listener asked to leave (`q`, MPRIS Quit, a signal).
    private(set) var isQuitting = false
    /// True while every podcast is refreshed, so a second `R` does not start a second batch.
    var refreshingPodcasts = false
    /// Episodes downloading from this screen, each with when its list was last redrawn for its
    /// progress.
    var downloading: [Int64: Date] = [:]
    /// True while what plays is the queue: the Queue tab follows what leaves it.
    var playsQueue = false
    /// The soundbite `b` played last, so the next press plays the one after it.
    var lastSoundbite: (episode: Int64, number: Int)?
    /// The folder the music index's paths are relative to: songs play from it and `R` indexes it.
    let musicDirectory: URL?
    /// The songs the Music tab has playing, while they are what plays (`a` adds after them).
    var music: MusicUpNext?
    /// The artist or album the Music tab went back from, selected again once the level above is read.
    var musicReturnTo: String?

    init(language: Language, bindings: KeyBindings, musicDirectory: URL? = nil) {
        self.language = language
        self.bindings = bindings
        self.musicDirectory = musicDirectory
    }

    mutating func handle(_ event: LibraryEvent) -> [LibraryEffect] {
        switch event {
        case .opened: return [.reload]
        case .key(let key): return press(key)
        case .quit:
            isQuitting = true
            return []
        case .closing: return commitPendingRemoval()
        case .network(let online):
            model.player.networkChanged(online: online)
            model.changed()
            return []
        case .rows(let loaded):
            model.reload(loaded)
            if let title = musicReturnTo {
                musicReturnTo = nil
                if let row = model.entries.firstIndex(where: { $0.musicTitle == title }) { model.selection = row }
            }
            if case .failure(let error) = loaded { return [.record(error, operation: "loadLibrary")] }
            return []
        case .changed(let change, let failure): return changed(change, failure: failure)
        case .removalFailed(let error): return [.record(error, operation: "removeFromLibrary")]
        case .episodeResolved(let episode, let replacement): return episodeResolved(episode, replacement)
        case .soundbiteResolved(let clip): return soundbiteResolved(clip)
        case .sessionResolved(let request): return sessionResolved(request)
        case .queueResolved(let plan): return queueResolved(plan)
        case .likedCurrent(let liked): return likedCurrent(liked)
        case .diagnosticsLoaded(let summary, let retries):
            model.diagnostics = summary
            model.retries = retries
            model.changed()
            return []
        case .directoryAnswered(let search, let found): return directoryAnswered(search: search, found)
        case .feedAdded(let failure): return feedAdded(failure: failure)
        case .podcastsRefreshed(let outcome): return podcastsRefreshed(outcome)
        case .autoDownloaded(let failure): return autoDownloaded(failure: failure)
        case .episodesChanged: return refreshEpisodes()
        case .downloadProgressed(let episode, let now): return downloadProgressed(episode, at: now)
        case .downloadFinished(let episode, let failure): return downloadFinished(episode, failure: failure)
        case .player(let update): return received(update)
        case .playFailed(let error, let operation): return fail(error, operation: operation)
        case .queueEntryFailed(let error):
            alert(error, operation: .playback)
            return [.record(error, operation: "playQueue")]
        case .musicIndexProgressed(let progress): return musicIndexProgressed(progress)
        case .musicIndexed(let outcome): return musicIndexed(outcome)
        }
    }

    /// `q`.
    mutating func quit() { isQuitting = true }

    /// A change of the library was made: the list shows it; a failure is an alert.
    private mutating func changed(_ change: LibraryChange, failure: PlaybackError?) -> [LibraryEffect] {
        guard let failure else { return [.reload] }
        alert(failure, operation: .playback)
        return [.record(failure, operation: change.operation)]
    }

    /// Shows `error` as the alert, worded for what it interrupted.
    mutating func alert(_ error: PlaybackError, operation: ErrorOperation) {
        model.alert = error
        model.alertOperation = operation
        model.changed()
    }
}
