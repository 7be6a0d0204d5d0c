import Foundation
import PlayerCore

/// What one song of the MPD queue plays and how clients are told about it. A song is usually one
/// item; a session is one song of several stages, as the library's queue treats it.
package struct MPDEntry: Sendable, Hashable {
    /// The address a client added (`Stations/…`, `Podcasts/…/…`, `Music/…`, or a URL), which
    /// `file:` repeats back.
    package var uri: String
    package var items: [QueueItem]
    /// The episode behind the song, whose place is saved as it plays.
    package var episodeID: Int64?
    package var title: String?
    package var artist: String?
    package var album: String?
    /// A station's name (`Name:`, as MPD tells a stream's icy-name).
    package var name: String?
    /// Nil for a live stream and when unknown.
    package var duration: Double?
    /// When the song's file last changed (seconds since 1970), for `Last-Modified`; nil for
    /// anything but a music file.
    package var modified: Double?
    /// A session's bed and bells. A song with layers plays as a request of its own: its layers
    /// start with its first stage and close after its last, never under another song.
    package var layers: LayerPlan?

    package init(
        uri: String, items: [QueueItem], episodeID: Int64? = nil, title: String? = nil, artist: String? = nil, album: String? = nil,
        name: String? = nil, duration: Double? = nil, layers: LayerPlan? = nil
    ) {
        self.uri = uri
        self.items = items
        self.layers = layers
        self.episodeID = episodeID
        self.title = title
        self.artist = artist
        self.album = album
        self.name = name
        self.duration = duration
    }

    /// A song that plays one track, told with the track's own tags.
    package init(uri: String, track: Track, startPosition: TimeInterval = 0, episodeID: Int64? = nil, name: String? = nil) {
        self.init(
            uri: uri, items: [QueueItem(track: track, startPosition: startPosition)], episodeID: episodeID, title: track.title,
            artist: track.artist, album: track.album, name: name, duration: track.duration)
    }

    /// The entry's items with track ids of this song's own (`mpd<song id>/<track id>`): the same
    /// file added twice is two songs, and the player's current track names the song it belongs to.
    /// `play` tells a repeat of the song from the play before it (`mpd<song id>~<play>/…`).
    /// `albumLoudness`, when given, is the measured loudness of the album the song belongs to.
    package func items(songID: Int, play: Int = 0, albumLoudness: Loudness? = nil) -> [QueueItem] {
        items.map { item in
            let t = item.track
            var track = Track(
                id: MPDEntry.trackID(songID: songID, play: play, trackID: t.id), url: t.url, kind: t.kind, title: t.title, artist: t.artist,
                album: t.album, duration: t.duration, volume: t.volume, loop: t.loop, loudness: t.loudness,
                sessionLoudness: t.sessionLoudness, chaptersURL: t.chaptersURL, transcript: t.transcript, tags: t.tags)
            track.measuredAlbumLoudness = albumLoudness ?? t.measuredAlbumLoudness
            return QueueItem(track: track, crossfadeIntoNext: item.crossfadeIntoNext, startPosition: item.startPosition)
        }
    }

    /// The tags (and audio format) of a song that is one local file that was read; nil for streams,
    /// episodes and sessions, which are told by their own fields.
    package var fileTags: SongTags? {
        guard items.count == 1, let track = items.first?.track, track.url.isFileURL, let tags = track.tags else { return nil }
        return tags
    }

    package static func trackID(songID: Int, play: Int = 0, trackID: String) -> String {
        play == 0 ? "mpd\(songID)/\(trackID)" : "mpd\(songID)~\(play)/\(trackID)"
    }

    /// The song a player's track id belongs to; nil for a track the queue did not make.
    package static func songID(ofTrackID id: String) -> Int? {
        guard id.hasPrefix("mpd"), let slash = id.firstIndex(of: "/") else { return nil }
        let song = id[id.index(id.startIndex, offsetBy: 3)..<slash]
        return Int(song.split(separator: "~", maxSplits: 1).first ?? song)
    }
}
