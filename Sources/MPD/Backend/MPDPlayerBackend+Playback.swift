import Foundation
import MPDProtocol
import PlayerKit

/// Playing, pausing, moving between songs, seeking, the volume and the playback options.
extension MPDPlayerBackend {
    static let playbackCommands: [MPDCommandEntry] = [
        MPDCommandEntry("play", 0...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            if a.count == 1 {
                let position = try a.unsigned(0)
                try await b.play(songID: try b.queue.song(at: position).id)
            } else {
                try await b.playOrResume()
            }
            return .empty
        },
        MPDCommandEntry("playid", 0...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            if a.count == 1 { try await b.play(songID: try b.queue.song(id: try a.unsigned(0)).id) } else { try await b.playOrResume() }
            return .empty
        },
        MPDCommandEntry("pause", 0...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let state = await b.player.state
            let pausing = a.count == 1 ? try a.bool(0) : !(state.name == .paused || state.name == .crossfadePaused)
            // MPD ignores a pause that changes nothing (already paused, or stopped).
            if pausing, state.allows(.pause) { try await b.send(.pause) }
            if !pausing, state.allows(.resume) { try await b.send(.resume) }
            return .empty
        },
        MPDCommandEntry("stop", 0...0, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            if await b.player.state.allows(.stop) {
                b.stopping = true
                try await b.send(.stop)
            }
            return .empty
        },
        MPDCommandEntry("next", 0...0, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try await b.next()
            return .empty
        },
        MPDCommandEntry("previous", 0...0, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try await b.previous()
            return .empty
        },
        MPDCommandEntry("seek", 2...2, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try await b.seek(songID: try b.queue.song(at: try a.unsigned(0)).id, to: try a.seconds(1))
            return .empty
        },
        MPDCommandEntry("seekid", 2...2, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try await b.seek(songID: try b.queue.song(id: try a.unsigned(0)).id, to: try a.seconds(1))
            return .empty
        },
        MPDCommandEntry("seekcur", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            guard let id = b.queue.currentID else { throw MPDAck(.playerSync, "Not playing") }
            let text = a.string(0) ?? ""
            let relative = text.hasPrefix("+") || text.hasPrefix("-")
            let value = try a.seconds(0, signed: relative)
            try await b.seek(songID: id, to: max(0, relative ? b.view.position + value : value))
            return .empty
        },
        MPDCommandEntry("setvol", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let percent = try a.unsigned(0)
            guard percent <= 100 else { throw MPDAck(.argument, "Invalid volume value") }
            try await b.send(.setVolume(.to(Volume(Double(percent) / 100))))
            return .empty
        },
        MPDCommandEntry("volume", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let change = try a.int(0)
            guard (-100...100).contains(change) else { throw MPDAck(.argument, "Invalid volume value") }
            try await b.send(.setVolume(.by(Double(change) / 100)))
            return .empty
        },
        MPDCommandEntry("getvol", 0...0, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            return MPDResponse([.init("volume", String(min(100, await b.player.volume.percent)))])
        },
        MPDCommandEntry("crossfade", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let seconds = try a.unsigned(0)
            guard Double(seconds) <= CrossfadeSpec.maximumDuration else {
                throw MPDAck(.argument, "Crossfade is at most \(Int(CrossfadeSpec.maximumDuration)) s")
            }
            try await b.setOptions { $0.options.crossfade = seconds }
            return .empty
        },
        MPDCommandEntry("random", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let on = try a.bool(0)
            try await b.setOptions { $0.setRandom(on) }
            return .empty
        },
        MPDCommandEntry("repeat", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let on = try a.bool(0)
            try await b.setOptions { $0.options.repeat = on }
            return .empty
        },
        MPDCommandEntry("single", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            guard let mode = MPDQueue.SingleMode(rawValue: a.string(0) ?? "") else { throw MPDAck(.argument, "Boolean (0/1) or oneshot expected") }
            try await b.setOptions { $0.options.single = mode }
            return .empty
        },
        MPDCommandEntry("consume", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let on = try a.bool(0)
            try await b.setOptions { $0.options.consume = on }
            return .empty
        },
        MPDCommandEntry("clearerror", 0...0, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            b.view.error = nil
            b.changed([.player])
            return .empty
        },
    ]

    /// `play` without a song: resumes a pause, else starts the current song (or the first).
    func playOrResume() async throws(MPDAck) {
        let state = await player.state
        if state.allows(.resume) { return try await send(.resume) }
        if state.name != .idle, state.name != .finished, state.name != .failed, state.currentTrack != nil { return }
        guard let id = queue.firstToPlay else { return }
        try await play(songID: id)
    }

    /// Starts the song with `id` (from `start`, or an episode's saved place), with everything that
    /// follows it in play order queued behind it, so the player crossfades from song to song. A
    /// session with layers plays alone, its bed and bells with it (`upcomingItems`).
    func play(songID id: Int, start: Double? = nil) async throws(MPDAck) {
        var song = try queue.song(id: id)
        song.entry = catalog.refreshedEpisode(song.entry)
        queue.update(id: id) { $0 = song.entry }
        let first = withCrossfades(songItems(of: song.entry, songID: id))
        let rest = song.entry.layers == nil ? upcomingItems(after: id) : []
        guard
            let request = PlayRequest(
                items: first + rest, startPosition: start ?? first.first?.startPosition ?? 0, layers: song.entry.layers)
        else {
            throw MPDAck(.noExist, "Nothing to play in this song")
        }
        logger.info("MPD play", metadata: ["position": "\(queue.position(ofID: id) ?? -1)", "items": "\(request.items.count)"])
        // Watched from before it is sent: a late end of the request it replaces is not its end.
        requestEnd = RequestEndWatch(lastItemID: request.items.last?.track.id)
        try await send(.replace(await assembly.prepared(.play(request), loudness: await player.loudness.mode)))
        stopping = false
        let left = queue.currentID
        queue.setCurrent(id)
        startingSong = id
        var subsystems: Set<MPDSubsystem> = [.player]
        if let gone = queue.cursor.consumed(leaving: left, for: id) {
            try? queue.delete(id: gone)
            subsystems.insert(.playlist)
        }
        changed(subsystems)
    }

    func next() async throws(MPDAck) {
        guard let id = queue.currentID else { return }
        let state = await player.state
        guard let nextID = queue.upcoming(after: id).first else {
            if state.allows(.stop) { try await send(.stop) }
            return
        }
        // The player already holds what follows: a skip crossfades into it as the listener set.
        // It does not across a session with layers, which is a request of its own.
        let acrossLayers = hasLayers(id) || hasLayers(nextID)
        if !acrossLayers, state.allows(.skip), state.currentTrack != nil { return try await send(.skip) }
        try await play(songID: nextID)
    }

    func previous() async throws(MPDAck) {
        guard let id = queue.currentID else { return }
        if let before = queue.previous(before: id) { return try await play(songID: before) }
        try await seek(songID: id, to: 0)
    }

    /// Seeks within the song being heard, or starts another song at `seconds`.
    func seek(songID id: Int, to seconds: Double) async throws(MPDAck) {
        let state = await player.state
        if id == queue.currentID, state.allows(.seek), state.nextTrack == nil { return try await send(.seek(to: seconds)) }
        try await play(songID: id, start: seconds)
    }

    func setOptions(_ change: (inout MPDQueue) -> Void) async throws(MPDAck) {
        let before = queue.options
        change(&queue)
        guard queue.options != before else { return }
        changed([.options])
        try await sendUpcoming()
    }

    // MARK: What follows the current song

    /// The crossfade between two songs: the `crossfade` option, gapless at 0.
    var songCrossfade: CrossfadeSpec {
        queue.options.crossfade > 0 ? CrossfadeSpec(duration: Double(queue.options.crossfade), curve: curve) : .gapless
    }

    /// A song's items with the crossfade into the next song on its last one (a session keeps its
    /// own between its stages).
    func withCrossfades(_ items: [QueueItem]) -> [QueueItem] {
        items.enumerated().map { i, item in
            guard i == items.count - 1 else { return item }
            return QueueItem(track: item.track, crossfadeIntoNext: songCrossfade, startPosition: item.startPosition)
        }
    }

    /// How many songs the player is told of ahead: it needs only the next to preload and
    /// crossfade, and is told again whenever the song changes, so a long queue costs nothing.
    static let songsAhead = 8

    /// The items of the songs that play after `id` (the next `songsAhead`), each from its start
    /// (an episode from its saved place), up to the first session with layers: its bed and bells
    /// belong to it alone, so it starts as a request of its own once what is before it has played
    /// to its end (`requestEnd`), and nothing follows it in its request.
    func upcomingItems(after id: Int) -> [QueueItem] {
        var items: [QueueItem] = []
        for next in queue.upcoming(after: id).prefix(Self.songsAhead) {
            guard let song = try? queue.song(id: next) else { continue }
            if song.entry.layers != nil { break }
            // The song again (`single` with `repeat`, a queue of one with `repeat`) is another
            // play of it: its tracks get ids of their own, as the player plays a track once in a row.
            items += withCrossfades(songItems(of: catalog.refreshedEpisode(song.entry), songID: next, play: next == id ? 1 : 0))
        }
        return items
    }

    /// Whether the song `id` is a session with layers.
    func hasLayers(_ id: Int) -> Bool { (try? queue.song(id: id))?.entry.layers != nil }

    /// Tells the player what now follows the item it is playing: the rest of the current song
    /// (a session's later stages) and the songs after it. Nothing to tell when no song of the
    /// queue is playing.
    func sendUpcoming() async throws(MPDAck) {
        let state = await player.state
        guard let track = state.heardTrack, let id = MPDEntry.songID(ofTrackID: track.id),
            let song = try? queue.song(id: id), ![.idle, .finished, .failed].contains(state.name)
        else { return }
        let items = withCrossfades(songItems(of: song.entry, songID: id))
        guard let index = items.firstIndex(where: { $0.track.id == track.id }) else { return }
        let upcoming = Array(items[(index + 1)...]) + (song.entry.layers == nil ? upcomingItems(after: id) : [])
        try await send(.setUpcoming(UpcomingChange(items: upcoming, crossfadeFromCurrent: items[index].crossfadeIntoNext)))
        requestEnd.expect(lastItemID: (upcoming.last ?? items[index]).track.id)
    }
}
