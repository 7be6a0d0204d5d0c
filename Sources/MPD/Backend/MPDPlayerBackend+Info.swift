import Foundation
import Library
import LibraryKit
import MPDProtocol
import PlayerKit

/// What clients read: the status, the song playing, the library's directories, and the lists of
/// what this server supports (the outputs are `outputCommands`', the tags the connection's own
/// `tagtypes`).
extension MPDPlayerBackend {
    static let infoCommands: [MPDCommandEntry] = [
        MPDCommandEntry("status", 0...0, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            // The queue is read after the wait for the player, so both are of the same moment.
            let player = await b.currentView()
            var status = MPDStatus.response(queue: b.queue, player: player, language: b.language)
            // The music index's update running now, as mpd shows its job.
            if let job = b.databaseUpdates.running { status.append("updating_db", String(job)) }
            return status
        },
        MPDCommandEntry("currentsong", 0...0, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            guard let id = b.queue.currentID, let position = b.queue.position(ofID: id) else { return .empty }
            return b.songs(position..<(position + 1), for: a.command.client)
        },
        MPDCommandEntry("stats", 0...0, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            return b.stats()
        },
        MPDCommandEntry("lsinfo", 0...1, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let path = a.string(0) ?? ""
            var r = a.command.client.songFields(try b.catalog.list(path))
            // The root also lists the stored playlists, as mpd's does (mpc's `lsplaylists` reads them there).
            if try MPDCatalog.split(path).isEmpty { r.append(contentsOf: try b.storedPlaylistFields()) }
            return r
        },
        MPDCommandEntry("urlhandlers", 0...0, .read) { (_: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            return MPDResponse([.init("handler", "http://"), .init("handler", "https://")])
        },
        MPDCommandEntry("decoders", 0...0, .read) { (_: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            var r = MPDResponse([.init("plugin", "ffmpeg")])
            for suffix in MPDCatalog.audioExtensions.sorted() { r.append("suffix", suffix) }
            return r
        },
    ]

    /// The view, with the player's state as it is right now: a command that just changed it is
    /// told truthfully even before the update reached the backend.
    ///
    /// The player is asked first and the view copied after: while this waits for the player, the
    /// backend reads updates, and a copy taken before the wait would be older than the answer.
    func currentView() async -> MPDPlayerView {
        let state = await player.state
        let volume = await player.volume
        let position = await player.currentPosition
        var current = view
        // The player may be ahead of the updates read so far (a reconnect begun a moment ago):
        // its state and the error that comes with it, never the state alone.
        current.adopt(state)
        current.volume = volume
        // Paused, the state holds where the song is (a seek while paused moves it; the decks'
        // last report is from before).
        if case .paused(_, let at) = state { current.position = at } else if let position { current.position = position }
        return current
    }

    func stats() -> MPDResponse {
        var r = MPDResponse()
        let store = catalog.library.store
        let podcasts = (try? store.podcasts()) ?? []
        let episodes = podcasts.flatMap { (try? store.episodes(podcastID: $0.id)) ?? [] }
        let music = (try? store.musicTotals()) ?? MusicTotals()
        // The music database as the database commands show it (a cue sheet's tracks, not their
        // image; a FLAC with an embedded sheet as one song), counted as mpd counts it: every
        // artist and album value once. Failures count too, as mpd counts a file it could not
        // scan. Beside them, the library's stations, episodes and sessions.
        let database = (try? databaseSongs()) ?? []
        var artists: Set<String> = []
        var albums: Set<String> = []
        var playtime = 0.0
        for song in database {
            artists.formUnion(song.record.tags[all: .artist])
            albums.formUnion(song.record.tags[all: .album])
            playtime += song.record.tags.audio.duration ?? 0
        }
        let songs = ((try? store.stations().count) ?? 0) + episodes.count + ((try? store.sessions().count) ?? 0) + database.count + music.failures
        r.append("artists", String(Set(podcasts.compactMap(\.author)).count + artists.count))
        r.append("albums", String(podcasts.count + albums.count))
        r.append("songs", String(songs))
        r.append("uptime", String(Int(Date().timeIntervalSince(startedAt))))
        r.append("db_playtime", String(Int(episodes.compactMap(\.duration).reduce(0, +) + playtime)))
        r.append("db_update", String(Int((music.lastUpdate ?? startedAt).timeIntervalSince1970)))
        r.append("playtime", String(Int(audioTime)))
        return r
    }
}
