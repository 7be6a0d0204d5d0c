import Foundation
import Library
import Logging
import Media
import PlayerCore

/// The music library's use cases, the same for every front end (`tonearm music`, the library
/// screen, MPD's `update`): the index is brought up to date with FFmpeg's tag reader.
extension LibraryContext {
    /// An indexer of `directory` into this library, reading tags with FFmpeg.
    package func musicIndexer(directory: URL, logger: Logger) -> MusicIndexer {
        MusicIndexer(directory: directory, store: store, read: { url throws(PlaybackError) in try TagReader.read(url) }, logger: logger)
    }

    /// What `tonearm music play` plays: an album's songs in its order (of one artist when
    /// `artist` is given too), or everything of an artist (`MusicAlbums.songs(_:by:)`). Names
    /// match whatever their case; `.notInLibrary` when the index holds nothing of them.
    package func musicToPlay(album: String?, artist: String?) throws(PlaybackError) -> [MusicSongRecord] {
        let songs = try store.musicSongs()
        let found: [MusicSongRecord]
        if let album {
            found = MusicAlbums.albums(songs, artist: artist).filter { $0.title.caseInsensitiveCompare(album) == .orderedSame }.flatMap(\.songs)
        } else if let artist {
            found = MusicAlbums.songs(songs, by: artist)
        } else {
            found = []
        }
        guard !found.isEmpty else {
            throw PlaybackError(.notInLibrary, underlying: album == nil ? "no such artist in the music index" : "no such album in the music index")
        }
        return found
    }
}
