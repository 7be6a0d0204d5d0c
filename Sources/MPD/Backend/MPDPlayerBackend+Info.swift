import Foundation
import LibraryKit
import MPDProtocol
import PlayerKit

/// What clients read: the status, the song playing, the outputs, the library's directories,
/// and the lists of what this server supports.
extension MPDPlayerBackend {
    static let infoCommands: [MPDCommandEntry] = [
        MPDCommandEntry("status", 0...0, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            // The queue is read after the wait for the player, so both are of the same moment.
            let player = await b.currentView()
            return MPDStatus.response(queue: b.queue, player: player, language: b.language)
        },
        MPDCommandEntry("currentsong", 0...0, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            guard let id = b.queue.currentID, let position = b.queue.position(ofID: id) else { return .empty }
            return b.songs(position..<(position + 1))
        },
        MPDCommandEntry("stats", 0...0, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            return b.stats()
        },
        MPDCommandEntry("outputs", 0...0, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            var r = MPDResponse()
            for (i, name) in b.outputNames.enumerated() {
                r.append("outputid", String(i))
                r.append("outputname", name)
                r.append("plugin", "tonearm")
                r.append("outputenabled", "1")
            }
            return r
        },
        MPDCommandEntry("enableoutput", 1...1, .admin) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            guard b.outputNames.indices.contains(try a.unsigned(0)) else { throw MPDAck(.noExist, "No such audio output") }
            return .empty
        },
        // Tonearm's outputs are chosen when it starts; turning one off while it runs is refused
        // rather than pretended.
        MPDCommandEntry("disableoutput", 1...1, .admin) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            guard b.outputNames.indices.contains(try a.unsigned(0)) else { throw MPDAck(.noExist, "No such audio output") }
            throw MPDAck(.system, "Tonearm's outputs are set when it starts (--output, --also-output)")
        },
        MPDCommandEntry("lsinfo", 0...1, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            return try b.catalog.list(a.string(0) ?? "")
        },
        MPDCommandEntry("tagtypes", 0..., .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            // `tagtypes clear|all|enable|disable` are accepted; every song carries the same few
            // tags anyway, so there is nothing to leave out.
            guard a.count == 0 else {
                guard ["clear", "all", "enable", "disable"].contains(a.string(0) ?? "") else { throw MPDAck(.argument, "Unknown sub command") }
                return .empty
            }
            return MPDResponse(MPDStatus.tagTypes.map { .init("tagtype", $0) })
        },
        MPDCommandEntry("urlhandlers", 0...0, .read) { (_: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            return MPDResponse([.init("handler", "http://"), .init("handler", "https://")])
        },
        MPDCommandEntry("decoders", 0...0, .read) { (_: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            var r = MPDResponse([.init("plugin", "ffmpeg")])
            for suffix in MPDCatalog.audioExtensions.sorted() { r.append("suffix", suffix) }
            return r
        },
        MPDCommandEntry("replay_gain_status", 0...0, .read) { (_: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            // Tonearm levels loudness by EBU R128 measurement (its own setting), not by ReplayGain tags.
            return MPDResponse([.init("replay_gain_mode", "off")])
        },
        // Tonearm keeps no stored playlists: the queue, the library's stations, podcasts and
        // sessions take their place.
        MPDCommandEntry("listplaylists", 0...0, .read) { (_: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            return .empty
        },
        MPDCommandEntry("listplaylistinfo", 1...1, .read) { (_: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            throw MPDAck(.noExist, "No such playlist")
        },
        MPDCommandEntry("listplaylist", 1...1, .read) { (_: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            throw MPDAck(.noExist, "No such playlist")
        },
        MPDCommandEntry("channels", 0...0, .read) { (_: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            return .empty
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
        if let position { current.position = position }
        return current
    }

    func stats() -> MPDResponse {
        var r = MPDResponse()
        let store = catalog.library.store
        let podcasts = (try? store.podcasts()) ?? []
        let episodes = podcasts.flatMap { (try? store.episodes(podcastID: $0.id)) ?? [] }
        let songs = ((try? store.stations().count) ?? 0) + episodes.count + ((try? store.sessions().count) ?? 0)
        r.append("artists", String(Set(podcasts.compactMap(\.author)).count))
        r.append("albums", String(podcasts.count))
        r.append("songs", String(songs))
        r.append("uptime", String(Int(Date().timeIntervalSince(startedAt))))
        r.append("db_playtime", String(Int(episodes.compactMap(\.duration).reduce(0, +))))
        r.append("db_update", String(Int(startedAt.timeIntervalSince1970)))
        r.append("playtime", String(Int(audioTime)))
        return r
    }
}
