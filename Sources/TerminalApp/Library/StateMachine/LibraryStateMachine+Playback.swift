import Foundation
import LibraryKit
import PlayerCore
import PlayerKit

extension LibraryStateMachine {
    /// Enter: a podcast opens its episodes; a station, an episode, a session or a queue entry
    /// plays; a search hit plays its episode from where its words are said.
    mutating func openSelection() -> [LibraryEffect] {
        guard let entry = model.selectedEntry else { return [] }
        switch entry {
        case .podcast(let podcast):
            model.episodesOf = (entry, podcast.title)
            model.selection = 0
            model.list = .initial
            return [.reload]
        case .station(let record):
            // Counted through this screen's directory (the one it searches).
            let click: [LibraryEffect] = record.directoryID.map { [.countClick(directoryID: $0)] } ?? []
            return click + play(Playback(replacement: .play(PlayRequest(track: record.station.track)), operation: "playStation"))
        case .found(let station):
            let track = Station(id: "directory-\(station.id)", name: station.name, url: station.streamURL, genre: station.tags.first).track
            return [.countClick(directoryID: station.id)] + play(Playback(replacement: .play(PlayRequest(track: track)), operation: "playStation"))
        case .episode(let record):
            return [.resolve(.episode(record.id))]
        case .session(let record):
            return [.resolve(.session(path: record.path))]
        case .queued(let entry):
            return [.resolve(.queue(from: entry.id))]
        case .hit(let hit):
            guard let episode = hit.episodeID else { return [] }
            return [.resolve(.episode(episode, from: hit.time))]
        case .artist(let name, _):
            return openMusic(entry, title: name)
        case .album(let album):
            return openMusic(entry, title: album.title)
        case .song(let song, let album):
            return playSong(song, album: album)
        case .heard, .favourite:
            return []
        }
    }

    /// An episode plays; a library that cannot be read is a failure of the episode, shown in its
    /// error view.
    mutating func episodeResolved(_ episode: Int64, _ replacement: Result<PlayerEvent.Replacement, PlaybackError>) -> [LibraryEffect] {
        let replacement: PlayerEvent.Replacement = switch replacement {
        case .success(let replacement): replacement
        case .failure(let error): .cannotPlay(error)
        }
        return play(Playback(replacement: replacement, episode: episode, operation: "playEpisode"))
    }

    /// `b` on an episode: its first soundbite, and the next on each press after (around to the
    /// first again); nothing for an episode without one.
    mutating func playSelectedSoundbite() -> [LibraryEffect] {
        guard case .episode(let record)? = model.selectedEntry, !record.soundbites.isEmpty else { return [] }
        var number = 1
        if let last = lastSoundbite, last.episode == record.id { number = last.number % record.soundbites.count + 1 }
        lastSoundbite = (record.id, number)
        return [.resolve(.soundbite(episode: record.id, number: number))]
    }

    /// A soundbite plays as a clip: no place kept, and a failure to read it is shown as the
    /// episode's would be.
    mutating func soundbiteResolved(_ clip: Result<(PlayerEvent.Replacement, clip: TimeInterval), PlaybackError>) -> [LibraryEffect] {
        switch clip {
        case .success(let (replacement, seconds)):
            play(Playback(replacement: replacement, clip: seconds, operation: "playSoundbite"))
        case .failure(let error):
            play(Playback(replacement: .cannotPlay(error), operation: "playSoundbite"))
        }
    }

    mutating func sessionResolved(_ request: Result<PlayRequest, PlaybackError>) -> [LibraryEffect] {
        switch request {
        case .success(let request): play(Playback(replacement: .play(request), operation: "playSession"))
        case .failure(let error): fail(error, operation: "playSession")
        }
    }

    /// The queue plays from the entry selected; an entry that cannot play is an alert, and the
    /// rest plays without it.
    mutating func queueResolved(_ plan: Result<QueuePlan, PlaybackError>) -> [LibraryEffect] {
        switch plan {
        case .success(let plan):
            if let (_, error) = plan.skipped.first { alert(error, operation: .playback) }
            guard let request = plan.request else { return [] }
            return play(Playback(replacement: .play(request), queue: plan, operation: "playQueue"))
        case .failure(let error):
            return fail(error, operation: "playQueue")
        }
    }

    /// Starts `playback` with Now Playing open.
    mutating func play(_ playback: Playback) -> [LibraryEffect] {
        playsQueue = playback.queue != nil
        // Something else plays now: `a` on the Music tab starts anew rather than adding after it.
        music = nil
        model.nowPlayingOpen = true
        model.changed()
        return [.play(playback)]
    }

    /// Playback could not start: the alert says why, over the library.
    mutating func fail(_ error: PlaybackError, operation: AnalyticsIdentifier) -> [LibraryEffect] {
        model.nowPlayingOpen = false
        alert(error, operation: .playback)
        return [.record(error, operation: operation)]
    }

    /// The player's update reaches the screen's model; while the queue plays, what ended or was
    /// moved past has left it, so the Queue tab shows that at once.
    mutating func received(_ update: PlayerUpdate) -> [LibraryEffect] {
        let before = model.player.version
        model.player.apply(update)
        if model.player.version != before { model.changed() }
        if case .notice(.currentItem(let index), _) = update { musicItemChanged(index) }
        if playsQueue, case .state = update, model.tab == .queue { return [.reload] }
        return []
    }
}
