import Foundation
import Library
import LibraryKit
import PlayerCore
import Presentation

/// The Music tab: artists, an artist's albums, an album's songs; Enter plays an album from the
/// song chosen, `a` adds a song, an album or an artist's songs after what plays, `R` updates the
/// index with its progress on screen.
extension LibraryStateMachine {
    /// Enter on an artist or an album: one level down, read from the index.
    mutating func openMusic(_ entry: LibraryEntry, title: String) -> [LibraryEffect] {
        model.musicPath.append((entry, title))
        model.selection = 0
        model.list = .initial
        model.changed()
        return [.reload]
    }

    /// Back from an album to its artist's albums, or from an artist to the artists; the row
    /// left is selected again. False when the artists are shown already.
    mutating func musicLevelUp() -> Bool {
        guard let left = model.musicPath.popLast() else { return false }
        musicReturnTo = left.title
        model.selection = 0
        model.list = .initial
        return true
    }

    /// Enter on a song: its album plays from it, in the album's order (a song without an album
    /// plays alone), with Now Playing open.
    mutating func playSong(_ song: MusicSongRecord, album: MusicAlbum?) -> [LibraryEffect] {
        guard let musicDirectory else { return fail(Self.noMusicFolder, operation: "playMusic") }
        let songs = album?.songs ?? [song]
        let start = songs.firstIndex { $0.id == song.id } ?? 0
        let items = songs[start...].map { $0.queueItem(in: musicDirectory) }
        guard let request = PlayRequest(items: items) else { return [] }
        let effects = play(Playback(replacement: .play(request), operation: "playMusic"))
        music = MusicUpNext(items)
        return effects
    }

    /// `a` (or `u`) on the Music tab: the song, the album or every song of the artist go after
    /// what the Music tab plays, the current song going on; when nothing of it plays, they start
    /// now, the list staying on screen so more can be added. The note over the hints says what.
    mutating func enqueueMusic() -> [LibraryEffect] {
        let (songs, name): ([MusicSongRecord], String)
        switch model.selectedEntry {
        case .song(let song, _)?: (songs, name) = ([song], song.displayTitle)
        case .album(let album)?: (songs, name) = (album.songs, album.title)
        case .artist(let artist, let all)?: (songs, name) = (all, artist)
        default: return []
        }
        guard !songs.isEmpty else { return [] }
        guard let musicDirectory else { return fail(Self.noMusicFolder, operation: "queueMusic") }
        let items = songs.map { $0.queueItem(in: musicDirectory) }
        model.notice = UIStrings.format(.musicQueued, in: language, TextSanitizer.singleLine(name, maxLength: 80))
        model.changed()
        if var upNext = music, model.player.state.currentTrack != nil, ![.idle, .finished, .failed].contains(model.player.state.name) {
            let change = upNext.append(items)
            music = upNext
            return [.send(.setUpcoming(change))]
        }
        guard let request = PlayRequest(items: items) else { return [] }
        playsQueue = false
        music = MusicUpNext(items)
        return [.play(Playback(replacement: .play(request), operation: "queueMusic"))]
    }

    /// `R` on the Music tab: the index is brought up to date with the music folder while the
    /// screen goes on; a second `R` while it runs does nothing.
    mutating func updateMusicIndex() -> [LibraryEffect] {
        guard musicDirectory != nil, model.musicIndexing == nil else { return [] }
        model.musicIndexing = .scanning
        model.changed()
        return [.updateMusicIndex(rescan: false)]
    }

    /// The indexer read more files (it reports after each batch it writes).
    mutating func musicIndexProgressed(_ progress: MusicIndexProgress) -> [LibraryEffect] {
        guard model.musicIndexing != nil else { return [] }
        model.musicIndexing = progress
        model.changed()
        // The first songs written are listed at once on an empty tab; a list already shown is
        // read again when the update ends (reading the whole index after every batch would hold
        // the screen on a large folder).
        return model.tab == .music && progress.read > 0 && model.list.items.isEmpty && model.musicPath.isEmpty ? [.reload] : []
    }

    /// The update ended: the list shows the index as it is now; a folder that is not there is the
    /// empty tab's own text, another failure the list's error; files that could not be read are
    /// counted in the note.
    mutating func musicIndexed(_ outcome: Result<MusicIndexer.Summary, PlaybackError>) -> [LibraryEffect] {
        model.musicIndexing = nil
        var effects: [LibraryEffect] = []
        switch outcome {
        case .success(let summary):
            model.missingMusicFolder = nil
            if summary.failures > 0 { model.notice = UIStrings.format(.musicIndexUnreadable, in: language, summary.failures) }
            if model.tab == .music { effects.append(.reload) }
        case .failure(let error):
            effects.append(.record(error, operation: "updateMusic"))
            if error.code == .fileNotFound, let musicDirectory {
                model.missingMusicFolder = Self.shown(musicDirectory)
                if model.tab == .music { effects.append(.reload) }
            } else if model.tab == .music {
                model.reload(.failure(error))
            } else {
                alert(error, operation: .playback)
            }
        }
        model.changed()
        return effects
    }

    /// The player's current item moved on: what `a` adds goes after it.
    mutating func musicItemChanged(_ index: Int) {
        music?.current = index
    }

    /// The folder as the listener writes it: `~/Music` under their home.
    static func shown(_ folder: URL, home: String = NSHomeDirectory()) -> String {
        let path = folder.standardizedFileURL.path
        guard !home.isEmpty, home != "/", path == home || path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }

    /// Playing a song needs the folder its path is relative to.
    static var noMusicFolder: PlaybackError { PlaybackError(.fileNotFound, underlying: "no music folder was given to the library screen") }
}
