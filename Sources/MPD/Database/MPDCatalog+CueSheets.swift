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

    /// The names of files in folder `relative` that a `.cue`'s tracks play from: not listed. A
    /// FLAC that embeds its sheet is listed (`embeddedCueHost`).
    package func cueImages(inFolder relative: String) -> Set<String> {
        let songs = (try? library.store.musicSongs(under: relative)) ?? []
        var names: Set<String> = []
        for song in songs where !MusicFiles.isEmbeddedCueTrack(song.path) {
            guard let image = song.tags.part?.image, MusicFiles.directory(of: image) == relative else { continue }
            names.insert((image as NSString).lastPathComponent)
        }
        return names
    }

    // MARK: Sheets embedded in FLAC files

    /// The FLAC file at `relative` when the index read an embedded cue sheet of it; nil for any
    /// other path. mpd 0.23 shows such a file as one song followed by a playlist of the same path
    /// (`playlist: album/image.flac`), never as a folder: its tracks are no database songs, and
    /// come out of `listplaylist`, `listplaylistinfo` and `load` of the file's path.
    package func embeddedCueHost(_ relative: String) -> MusicSongRecord? {
        guard hasEmbeddedCueSheet(relative), let record = try? library.store.musicSong(path: relative), record.failure == nil else { return nil }
        return record
    }

    /// The index's songs as mpd's database holds them: each FLAC with an embedded sheet in place
    /// of its tracks (the store lists the tracks and leaves the file out, as for a `.cue`), and
    /// the paths of those FLACs, whose songs are followed by their `playlist:` line.
    package func databaseView(of records: [MusicSongRecord]) -> (songs: [MusicSongRecord], hosts: Set<String>) {
        var songs: [MusicSongRecord] = []
        var hosts: Set<String> = []
        songs.reserveCapacity(records.count)
        for record in records {
            guard MusicFiles.isEmbeddedCueTrack(record.path) else {
                songs.append(record)
                continue
            }
            let host = MusicFiles.directory(of: record.path)
            guard !hosts.contains(host), let image = try? library.store.musicSong(path: host), image.failure == nil else { continue }
            hosts.insert(host)
            songs.append(image)
        }
        return (songs, hosts)
    }

    /// Whether the song at `relative` is a FLAC whose embedded sheet the index read.
    package func hasEmbeddedCueSheet(_ relative: String) -> Bool {
        guard !relative.isEmpty, MusicFiles.isSong(name: (relative as NSString).lastPathComponent) else { return false }
        return !((try? library.store.musicSongs(inDirectory: relative)) ?? []).filter { MusicFiles.isEmbeddedCueTrack($0.path) }.isEmpty
    }

    /// The tracks of a cue sheet named as a playlist (`uri` a catalog path, `Music/...`): a `.cue`
    /// of the music directory, or a FLAC whose embedded sheet the index read. mpd's
    /// `listplaylist`, `listplaylistinfo` and `load` give them so: each track is its image's URI
    /// played from the track's part, with the track's tags. Nil when `uri` names no such sheet
    /// (then it is a stored playlist's name).
    package func sheetPlaylistEntries(_ uri: String) -> [MPDEntry]? {
        let prefix = MPDDatabaseSong.root + "/"
        guard uri.hasPrefix(prefix), let musicDirectory else { return nil }
        let relative = String(uri.dropFirst(prefix.count))
        let tracks: [MusicSongRecord]
        if MusicFiles.isCueSheet(name: (relative as NSString).lastPathComponent) {
            tracks = cueTracks(inSheet: relative)
        } else if hasEmbeddedCueSheet(relative) {
            tracks = ((try? library.store.musicSongs(inDirectory: relative)) ?? []).filter {
                MusicFiles.isEmbeddedCueTrack($0.path) && $0.failure == nil && $0.tags.part != nil
            }
        } else {
            return nil
        }
        guard !tracks.isEmpty else { return nil }
        return tracks.compactMap { track in
            // An image gone since the index read it plays nothing: left out, as `load` leaves out
            // a stored playlist's missing songs.
            guard let part = track.tags.part else { return nil }
            let url = musicDirectory.appendingPathComponent(part.image)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            var entry = MPDEntry(uri: prefix + part.image, track: .localFile(id: track.path, url: url, tags: track.tags))
            entry.modified = track.stamp.modified
            return entry
        }
    }

    /// What `add` queues for `relative` when it is a sheet (all its tracks) or one of its tracks;
    /// nil when it is neither.
    package func cueEntries(_ relative: String) throws(MPDAck) -> [MPDEntry]? {
        // An embedded sheet's track is no song of mpd's database (`embeddedCueHost`).
        if MusicFiles.isEmbeddedCueTrack(relative) { throw MPDAck(.noExist, "No such directory") }
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
        if MusicFiles.isEmbeddedCueTrack(relative) { return nil }
        if !relative.isEmpty, let song = try? library.store.musicSong(path: relative), song.failure == nil {
            var r = MPDDatabaseSong(song).fields()
            if hasEmbeddedCueSheet(relative) { r.append("playlist", MPDDatabaseSong(song).uri) }
            return r
        }
        let tracks = cueTracks(inSheet: relative)
        guard !tracks.isEmpty else { return nil }
        var r = MPDResponse()
        for track in tracks { r.append(contentsOf: MPDDatabaseSong(track).fields()) }
        return r
    }
}
