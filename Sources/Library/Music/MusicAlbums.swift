import Foundation
import PlayerCore

/// The index seen as a listener browses it: artists, their albums (with a year), an album's songs
/// in disc and track order. Pure over the rows, so every front end groups the same way.
///
/// An album belongs to its album artist when the files name one, else to its artist, as mpd's
/// clients show it; songs that could not be read are left out, and songs without an album tag
/// are not an album.
package struct MusicAlbum: Sendable, Hashable, Codable {
    package var title: String
    package var artist: String
    /// The earliest year any of its songs gives.
    package var year: Int?
    package var songs: [MusicSongRecord]
}

package enum MusicAlbums {
    /// The name an album is filed under.
    package static func artist(of song: MusicSongRecord) -> String? {
        song.tags[.albumArtist] ?? song.tags[.artist]
    }

    /// Every artist with at least one readable song, in the order people sort names.
    package static func artists(_ songs: [MusicSongRecord]) -> [String] {
        Set(songs.filter { $0.failure == nil }.compactMap(artist(of:))).sorted(by: ordered)
    }

    /// Albums, of one artist when `artist` is given, sorted by artist, then year, then title.
    package static func albums(_ songs: [MusicSongRecord], artist: String? = nil) -> [MusicAlbum] {
        var grouped: [String: [String: [MusicSongRecord]]] = [:]
        for song in songs where song.failure == nil {
            guard let title = song.tags[.album], let by = Self.artist(of: song) else { continue }
            if let artist, by.caseInsensitiveCompare(artist) != .orderedSame { continue }
            grouped[by, default: [:]][title, default: []].append(song)
        }
        var albums: [MusicAlbum] = []
        for (by, titles) in grouped {
            for (title, tracks) in titles {
                let year = tracks.compactMap { SongTags.leadingNumber($0.tags[.date]) }.min()
                albums.append(MusicAlbum(title: title, artist: by, year: year, songs: tracks.sorted(by: playOrder)))
            }
        }
        return albums.sorted {
            if $0.artist != $1.artist { return ordered($0.artist, $1.artist) }
            if $0.year != $1.year { return ($0.year ?? Int.max) < ($1.year ?? Int.max) }
            return ordered($0.title, $1.title)
        }
    }

    /// An artist's readable songs that name no album (no album holds them), in play order.
    package static func songsWithoutAlbum(_ songs: [MusicSongRecord], by artist: String) -> [MusicSongRecord] {
        songs.filter { song in
            song.failure == nil && song.tags[.album] == nil
                && Self.artist(of: song).map { $0.caseInsensitiveCompare(artist) == .orderedSame } == true
        }.sorted(by: playOrder)
    }

    /// Everything of an artist as it plays: album after album (by year, then title), each in
    /// its order, then the songs that name no album.
    package static func songs(_ songs: [MusicSongRecord], by artist: String) -> [MusicSongRecord] {
        albums(songs, artist: artist).flatMap(\.songs) + songsWithoutAlbum(songs, by: artist)
    }

    /// Disc, then track, then path: how an album plays.
    package static func playOrder(_ a: MusicSongRecord, _ b: MusicSongRecord) -> Bool {
        let left = (a.tags.discNumber ?? 0, a.tags.trackNumber ?? Int.max)
        let right = (b.tags.discNumber ?? 0, b.tags.trackNumber ?? Int.max)
        if left != right { return left < right }
        return a.path < b.path
    }

    private static func ordered(_ a: String, _ b: String) -> Bool { a.localizedStandardCompare(b) == .orderedAscending }
}
