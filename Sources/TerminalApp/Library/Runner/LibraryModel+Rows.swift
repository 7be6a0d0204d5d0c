import Foundation
import Library
import PlayerCore
import Presentation

/// The rows of the library screen's lists, read from the store (on the thread that handles the
/// key, as the runner performs `reload`).
extension LibraryViewModel where Entry == LibraryEntry {
    /// The rows of the current tab, without what waits to be removed.
    /// - Parameter learnedRetries: which feeds and stations to mark usually unreachable.
    func rows(
        in store: LibraryStore, language: Language, learnedRetries: LearnedRetryRule = .standard, now: Date = Date()
    ) throws(PlaybackError) -> [(LibraryRow, LibraryEntry)] {
        let all = try allRows(store, language: language, learnedRetries: learnedRetries, now: now)
        guard let pending = pendingRemoval?.entry else { return all }
        return all.filter { !$0.1.isSameItem(as: pending) }
    }

    private func allRows(
        _ store: LibraryStore, language: Language, learnedRetries: LearnedRetryRule, now: Date
    ) throws(PlaybackError) -> [(LibraryRow, LibraryEntry)] {
        switch tab {
        case .stations:
            if directoryQuery != nil {
                // The directory's answer is kept in the entries; the rows say which are kept already.
                let kept = Set(try store.stations().compactMap(\.directoryID))
                return entries.compactMap { entry in
                    guard case .found(let station) = entry else { return nil }
                    return (LibraryRow(title: station.name, detail: (kept.contains(station.id) ? "✓ " : "") + station.summary), entry)
                }
            }
            // A station that has stopped answering gets one try when played; the row says since when.
            var unreachable: [Int64: Date] = [:]
            for entry in try store.reachabilityEntries() {
                guard case .station(let id) = entry.item else { continue }
                unreachable[id] = learnedRetries.decide(entry.record, now: now, automatic: false).unreachableSince
            }
            return try store.stations().map { station in
                let mark = unreachable[station.id].map { Texts.format(UIString.usuallyUnreachable, in: language, EpisodeText.day($0)) }
                let detail = [mark, station.genre].compactMap { $0 }.joined(separator: "  ")
                return (LibraryRow(title: station.name, detail: detail.isEmpty ? nil : detail), .station(station))
            }
        case .podcasts:
            if episodesOf == nil, let libraryQuery { return try Self.searchRows(libraryQuery, in: store) }
            if case .podcast(let podcast)? = episodesOf?.entry {
                return try store.episodes(podcastID: podcast.id).map { episode in
                    let place = episode.played ? "✓" : episode.position > 0
                        ? "\(TimeText.clock(episode.position))\(episode.duration.map { " / \(TimeText.clock($0))" } ?? "")"
                        : episode.duration.map(TimeText.clock)
                    let number = EpisodeText.number(season: episode.season, episode: episode.episodeNumber)
                    let detail = [number, Self.downloadText(episode, language: language), place].compactMap { $0 }.joined(separator: "  ")
                    return (LibraryRow(title: episode.title, detail: detail.isEmpty ? nil : detail), .episode(episode))
                }
            }
            // Unplayed of all episodes, the time silence trimming has saved in them, and a feed
            // that has stopped answering (left out of refreshes of all).
            let saved = try store.trimmedSilenceByPodcastID()
            var unreachable: [Int64: Date] = [:]
            for entry in try store.reachabilityEntries() {
                guard case .feed(let id) = entry.item else { continue }
                unreachable[id] = learnedRetries.decide(entry.record, now: now, automatic: true).unreachableSince
            }
            return try store.podcasts().map { podcast in
                var detail = "\(podcast.unplayedCount)/\(podcast.episodeCount)"
                if let since = unreachable[podcast.id] {
                    detail = Texts.format(UIString.usuallyUnreachable, in: language, EpisodeText.day(since)) + "  " + detail
                }
                if podcast.newCount > 0 { detail = Texts.format(UIString.podcastNew, in: language, podcast.newCount) + "  " + detail }
                if let seconds = saved[podcast.id], seconds >= 1 {
                    detail += "  " + Texts.format(UIString.silenceSaved, in: language, TimeText.clock(seconds))
                }
                return (LibraryRow(title: podcast.title, detail: detail), .podcast(podcast))
            }
        case .queue:
            return try store.queue().map { entry in
                (LibraryRow(title: "\(entry.index + 1). \(entry.title)", detail: entry.detail), .queued(entry))
            }
        case .sessions:
            return try store.sessions().map { (LibraryRow(title: $0.name, detail: "\($0.stageCount)"), .session($0)) }
        case .history:
            return try store.history(limit: 500).map { heard in
                let when = HistoryText.when(heard.heardAt)
                return (LibraryRow(title: (heard.liked ? "♥ " : "  ") + heard.song, detail: "\(heard.station) · \(when)"), .heard(heard))
            }
        case .favourites:
            return try store.favourites().map { song in
                (LibraryRow(title: "♥ " + song.song, detail: [song.station, song.heardAt.map { HistoryText.when($0) }].compactMap { $0 }.joined(separator: " · ")),
                 .favourite(song))
            }
        case .diagnostics:
            return []
        case .music:
            return try musicRows(store)
        }
    }

    /// The Music tab's rows at its level: the songs a search found, an album's songs, an
    /// artist's albums (then their songs that have no album tag), or every artist. Read from
    /// the index alone; no file is opened.
    private func musicRows(_ store: LibraryStore) throws(PlaybackError) -> [(LibraryRow, LibraryEntry)] {
        if let libraryQuery {
            let found = try store.searchMusic(libraryQuery)
            guard !found.isEmpty else { return [] }
            // Each song plays in its album, so its album is found too.
            var albumOf: [Int64: MusicAlbum] = [:]
            for album in MusicAlbums.albums(try store.musicSongs()) {
                for song in album.songs { albumOf[song.id] = album }
            }
            return found.filter { $0.failure == nil }.map { song in
                let row = MusicRowText.found(
                    title: song.displayTitle, artist: MusicAlbums.artist(of: song), album: song.tags[.album], duration: song.tags.audio.duration)
                return (row, .song(song, album: albumOf[song.id]))
            }
        }
        switch musicPath.last?.entry {
        case .album(let album)?:
            return album.songs.map { (Self.songRow($0), .song($0, album: album)) }
        case .artist(let artist, _)?:
            let songs = try store.musicSongs()
            let albums = MusicAlbums.albums(songs, artist: artist).map { (MusicRowText.album(title: $0.title, year: $0.year), LibraryEntry.album($0)) }
            return albums + MusicAlbums.songsWithoutAlbum(songs, by: artist).map { (Self.songRow($0), .song($0, album: nil)) }
        default:
            let songs = try store.musicSongs()
            var albumsBy: [String: [MusicAlbum]] = [:]
            for album in MusicAlbums.albums(songs) { albumsBy[album.artist, default: []].append(album) }
            return MusicAlbums.artists(songs).map { artist in
                let all = (albumsBy[artist] ?? []).flatMap(\.songs) + MusicAlbums.songsWithoutAlbum(songs, by: artist)
                return (MusicRowText.artist(artist), .artist(artist, songs: all))
            }
        }
    }

    private static func songRow(_ song: MusicSongRecord) -> LibraryRow {
        MusicRowText.song(track: song.tags.trackNumber, title: song.displayTitle, duration: song.tags.audio.duration)
    }

    /// The library search's hits: a podcast opens (its episodes), an episode plays, a line of a
    /// transcript plays from its time. The row says what was found, then where.
    private static func searchRows(_ query: String, in store: LibraryStore) throws(PlaybackError) -> [(LibraryRow, LibraryEntry)] {
        var rows: [(LibraryRow, LibraryEntry)] = []
        for hit in try store.search(query) {
            switch hit.match {
            case .podcastTitle, .podcastDetails:
                let podcast = try store.podcast(matching: String(hit.podcastID))
                rows.append((LibraryRow(title: hit.text, detail: hit.match == .podcastTitle ? nil : podcast.title), .podcast(podcast)))
            case .episodeTitle, .episodeNotes:
                rows.append((LibraryRow(title: hit.text, detail: hit.match == .episodeTitle ? hit.podcastTitle : hit.episodeTitle), .hit(hit)))
            case .transcript:
                let time = hit.time.map { "\(TimeText.clock($0)) " } ?? ""
                let speaker = hit.speaker.map { "\($0): " } ?? ""
                rows.append((LibraryRow(title: time + speaker + hit.text, detail: hit.episodeTitle), .hit(hit)))
            }
        }
        return rows
    }

    /// "offline", "downloading 45%" or "download failed"; nil for an episode never downloaded.
    static func downloadText(_ episode: EpisodeRecord, language: Language) -> String? {
        switch episode.download {
        case .downloaded?: return Texts.format(UIString.episodeDownloaded, in: language)
        case .downloading?:
            let percent = episode.downloadProgress.map { "\(Int($0 * 100))%" } ?? "…"
            return Texts.format(UIString.episodeDownloading, in: language, percent)
        case .failed?: return Texts.format(UIString.episodeDownloadFailed, in: language)
        case nil: return nil
        }
    }
}
