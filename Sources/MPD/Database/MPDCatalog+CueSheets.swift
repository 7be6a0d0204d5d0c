import Foundation
import Library
import MPDProtocol
import PlayerCore

/// Cue sheets in the `Music` folder as mpd 0.23 shows them: a sheet is a playlist and a folder of
/// its tracks (`Album/image.cue/track0001`...), each track a song of its own with its `Range` in
/// the image; the image the tracks play from is hidden from listings (it stays addressable by its
/// own path), as mpd hides a sheet's targets. The tracks come from the index (`CueSheetReading`):
/// a sheet the index has not read (or could not) is no folder.
extension MPDCatalog {
    /// The indexed tracks of the sheet at `relative` (a path in the music directory), in order;
    /// empty when it is no sheet the index holds tracks of.
    package func cueTracks(inSheet relative: String) -> [MusicSongRecord] {
        guard MusicFiles.isCueSheet(name: (relative as NSString).lastPathComponent) else { return [] }
        return ((try? library.store.musicSongs(inDirectory: relative)) ?? []).filter { $0.failure == nil && $0.tags.part != nil }
    }

    /// The names of files in folder `relative` that a sheet's tracks play from: not listed.
    package func cueImages(inFolder relative: String) -> Set<String> {
        let songs = (try? library.store.musicSongs(under: relative)) ?? []
        var names: Set<String> = []
        for song in songs {
            guard let image = song.tags.part?.image, MusicFiles.directory(of: image) == relative else { continue }
            names.insert((image as NSString).lastPathComponent)
        }
        return names
    }

    /// What `add` queues for `relative` when it is a sheet (all its tracks) or one of its tracks;
    /// nil when it is neither.
    package func cueEntries(_ relative: String) throws(MPDAck) -> [MPDEntry]? {
        if let song = try? library.store.musicSong(path: relative), song.tags.part != nil {
            guard song.failure == nil else { throw MPDAck(.noExist, "No such song") }
            return [try cueEntry(song)]
        }
        let tracks = cueTracks(inSheet: relative)
        guard !tracks.isEmpty else { return nil }
        var entries: [MPDEntry] = []
        for track in tracks { entries.append(try cueEntry(track)) }
        return entries
    }

    /// One track as a queue entry: the image's file, played from the track's part of it
    /// (`SongPartDecoder`), told by the track's tags.
    private func cueEntry(_ song: MusicSongRecord) throws(MPDAck) -> MPDEntry {
        guard let musicDirectory, let part = song.tags.part else { throw MPDAck(.noExist, "No such song") }
        let url = musicDirectory.appendingPathComponent(part.image)
        guard FileManager.default.fileExists(atPath: url.path) else { throw MPDAck(.noExist, "No such song") }
        var entry = MPDEntry(uri: MPDDatabaseSong(song).uri, track: .localFile(id: song.path, url: url, tags: song.tags))
        entry.modified = song.stamp.modified
        return entry
    }

    /// `lsinfo` of a sheet (its tracks) or of one indexed song (a track, or any file, the image
    /// too: mpd answers a song's path with that song); nil when `relative` is neither.
    package func cueListing(_ relative: String) -> MPDResponse? {
        if !relative.isEmpty, let song = try? library.store.musicSong(path: relative), song.failure == nil {
            return MPDDatabaseSong(song).fields()
        }
        let tracks = cueTracks(inSheet: relative)
        guard !tracks.isEmpty else { return nil }
        var r = MPDResponse()
        for track in tracks { r.append(contentsOf: MPDDatabaseSong(track).fields()) }
        return r
    }
}
