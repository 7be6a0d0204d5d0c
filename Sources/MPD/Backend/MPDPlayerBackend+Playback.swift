import Foundation
import MPDProtocol
import PlayerKit

/// Playing, pausing, moving between songs, seeking, the volume and the playback options.
extension MPDPlayerBackend {
    static let playbackCommands: [MPDCommandEntry] = [
        MPDCommandEntry("play", 0...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            // `play -1` is `play` (MPD's "any song"); any other position must be in the queue.
            let position = a.count == 1 ? try MPDArgumentParser.int(a.command.arguments[0]) : -1
            b.view.error = nil
            if position == -1 { try await b.playOrResume() } else { try await b.play(songID: try b.queue.song(at: position).id) }
            return .empty
        },
        MPDCommandEntry("playid", 0...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let id = a.count == 1 ? try MPDArgumentParser.int(a.command.arguments[0]) : -1
            b.view.error = nil
            if id == -1 { try await b.playOrResume() } else { try await b.play(songID: try b.queue.song(id: id).id) }
            return .empty
        },
        MPDCommandEntry("pause", 0...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let asked = a.count == 1 ? try MPDArgumentParser.bool(a.command.arguments[0]) : nil
            let state = await b.stateToPause(unless: asked == false)
            let pausing = asked ?? !(state.name == .paused || state.name == .crossfadePaused)
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
            let position = try MPDArgumentParser.unsigned(a.command.arguments[0])
            let seconds = try MPDPlayerBackend.songTime(a.command.arguments[1])
            b.view.error = nil
            try await b.seek(songID: try b.queue.song(at: position).id, to: seconds)
            return .empty
        },
        MPDCommandEntry("seekid", 2...2, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let id = try MPDArgumentParser.unsigned(a.command.arguments[0])
            let seconds = try MPDPlayerBackend.songTime(a.command.arguments[1])
            b.view.error = nil
            try await b.seek(songID: try b.queue.song(id: id).id, to: seconds)
            return .empty
        },
        MPDCommandEntry("seekcur", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let text = a.command.arguments[0]
            let relative = text.hasPrefix("+") || text.hasPrefix("-")
            let value = Double(try MPDArgumentParser.float(text))
            _ = try await b.requirePlaying()
            guard let id = b.queue.currentID else { throw MPDAck(.playerSync, "Not playing") }
            let here = relative ? (await b.player.currentPosition ?? b.view.position) : 0
            try await b.seek(songID: id, to: max(0, here + value))
            return .empty
        },
        MPDCommandEntry("setvol", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let percent = try MPDArgumentParser.unsigned(a.command.arguments[0], max: 100)
            try await b.send(.setVolume(.to(Volume(Double(percent) / 100))))
            return .empty
        },
        MPDCommandEntry("volume", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let change = try MPDArgumentParser.int(a.command.arguments[0], in: -100...100)
            try await b.send(.setVolume(.by(Double(change) / 100)))
            return .empty
        },
        MPDCommandEntry("getvol", 0...0, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            return MPDResponse([.init("volume", String(min(100, await b.player.volume.percent)))])
        },
        MPDCommandEntry("crossfade", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let seconds = try MPDArgumentParser.unsigned(a.command.arguments[0])
            guard Double(seconds) <= CrossfadeSpec.maximumDuration else {
                throw MPDAck(.argument, "Crossfade is at most \(Int(CrossfadeSpec.maximumDuration)) s")
            }
            // MPD tells `idle options` of every crossfade, changed or not.
            try await b.setOptions(announcingAlways: true) { $0.options.crossfade = seconds }
            return .empty
        },
        MPDCommandEntry("mixrampdb", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let decibels = try MPDArgumentParser.float(a.command.arguments[0])
            try await b.setOptions(announcingAlways: true) { $0.options.mixRampDB = decibels }
            return .empty
        },
        MPDCommandEntry("mixrampdelay", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let seconds = try MPDArgumentParser.float(a.command.arguments[0])
            try await b.setOptions(announcingAlways: true) { $0.options.mixRampDelay = seconds }
            return .empty
        },
        MPDCommandEntry("random", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let on = try MPDArgumentParser.bool(a.command.arguments[0])
            try await b.setOptions { $0.setRandom(on) }
            // `auto` levels an album in order as a whole, shuffled songs each on its own.
            try await b.applyReplayGain()
            return .empty
        },
        MPDCommandEntry("repeat", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let on = try MPDArgumentParser.bool(a.command.arguments[0])
            try await b.setOptions { $0.options.repeat = on }
            return .empty
        },
        MPDCommandEntry("single", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            guard let mode = MPDQueue.SingleMode(rawValue: a.command.arguments[0]) else {
                throw MPDAck(.argument, "Unrecognized single mode, expected 0, 1, or oneshot")
            }
            try await b.setOptions { $0.options.single = mode }
            return .empty
        },
        MPDCommandEntry("consume", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            // `oneshot` is MPD 0.24's; anything else is read as 0.23 reads it.
            let text = a.command.arguments[0]
            let mode = text == "oneshot" ? MPDQueue.ConsumeMode.oneshot : try MPDArgumentParser.bool(text) ? .on : .off
            try await b.setOptions { $0.options.consume = mode }
            return .empty
        },
        MPDCommandEntry("replay_gain_mode", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            guard let mode = MPDQueue.ReplayGainMode(rawValue: a.command.arguments[0]) else {
                throw MPDAck(.argument, "Unrecognized replay gain mode")
            }
            try await b.setOptions(announcingAlways: true) { $0.options.replayGain = mode }
            try await b.applyReplayGain()
            return .empty
        },
        // The mode a client chose, as MPD tells it, the levelling Tonearm applies for it (`off`,
        // `track` or `session`; a terminal's key may since have changed it) and, once known, the
        // gain it gives the song that plays.
        MPDCommandEntry("replay_gain_status", 0...0, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            var r = MPDResponse([
                .init("replay_gain_mode", b.queue.options.replayGain.rawValue),
                .init("tonearm_levelling", await b.player.loudness.mode.rawValue),
            ])
            if let gain = b.view.trackGain { r.append("tonearm_gain", String(format: "%.2f", gain)) }
            return r
        },
        MPDCommandEntry("clearerror", 0...0, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            b.view.error = nil
            b.changed([.player])
            return .empty
        },
    ]

    /// A position in a song, in seconds (MPD's `ParseCommandArgSongTime`): fractions allowed,
    /// never negative.
    static func songTime(_ text: String) throws(MPDAck) -> Double {
        let value = try MPDArgumentParser.float(text)
        guard value >= 0 else { throw MPDAck(.argument, "Negative value not allowed: \(text)") }
        return Double(value)
    }

    /// The longest a `pause` waits for a song still loading.
    static let pauseWait = Duration.seconds(10)

    /// The player's state for a `pause`: once the song being loaded sounds, or has failed. MPD
    /// pauses a song still loading at once; Tonearm's player takes a pause only once it plays, so
    /// a client that pauses right after `play` (as python-mpd2's scripts do) has its pause wait
    /// for that, at most `pauseWait`, rather than see it dropped. `resuming` asks no wait.
    func stateToPause(unless resuming: Bool) async -> PlayerState {
        var state = await player.state
        let clock = ContinuousClock()
        let deadline = clock.now + Self.pauseWait
        while !resuming, state.name == .preparing, clock.now < deadline {
            try? await clock.sleep(for: .milliseconds(20))
            state = await player.state
        }
        return state
    }

    /// The player's state when it is on a song, playing or paused (MPD's `playing`); `next`,
    /// `previous` and `seekcur` are refused as MPD refuses them when it is not.
    func requirePlaying() async throws(MPDAck) -> PlayerState {
        let state = await player.state
        guard ![.idle, .finished, .failed].contains(state.name), queue.currentID != nil else { throw MPDAck(.playerSync, "Not playing") }
        return state
    }

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
        let first = playItems(of: song, entry: song.entry)
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
        // A session with layers plays alone and is levelled as one; songs are levelled each by
        // its album (`songItems`), never the queue as a whole.
        let prepared =
            song.entry.layers == nil
            ? assembly.preparedSongs(.play(request)) : await assembly.prepared(.play(request), loudness: await player.loudness.mode)
        try await send(.replace(prepared))
        stopping = false
        let left = queue.currentID
        var subsystems: Set<MPDSubsystem> = [.player]
        subsystems.formUnion(queue.started(id))
        startingSong = id
        subsystems.formUnion(queue.consume(leaving: left))
        changed(subsystems)
    }

    /// The next song in play order, whatever `single` says (a listener who asks for the next
    /// song gets it, as in MPD); after the last one playback stops with no song current.
    func next() async throws(MPDAck) {
        let state = try await requirePlaying()
        guard let id = queue.currentID else { return }
        guard let nextID = queue.nextIgnoringSingle(after: id) else {
            if state.allows(.stop) { try await send(.stop) }
            return
        }
        // The player already holds what follows: a skip crossfades into it as the listener set.
        // It does not across a session with layers, which is a request of its own, nor under
        // `single`, where the player holds nothing after the song (or the song again).
        // Nor during a crossfade: the song fading in is already the current one, and the player's
        // skip would only finish that fade.
        let acrossLayers = hasLayers(id) || hasLayers(nextID)
        let fading = state.name == .crossfading || state.name == .crossfadePaused
        if queue.upcoming(after: id).first == nextID, !acrossLayers, !fading, state.allows(.skip), state.currentTrack != nil {
            return try await send(.skip)
        }
        try await play(songID: nextID)
    }

    /// The song before in play order; the first song starts again (from its range's start).
    func previous() async throws(MPDAck) {
        _ = try await requirePlaying()
        guard let id = queue.currentID else { return }
        if let before = queue.previous(before: id) { return try await play(songID: before) }
        try await seek(songID: id, to: (try? queue.song(id: id))?.range?.startSeconds ?? 0)
    }

    /// Seeks within the song being heard, or starts another song at `seconds`.
    func seek(songID id: Int, to seconds: Double) async throws(MPDAck) {
        let state = await player.state
        if id == queue.currentID, state.allows(.seek), state.nextTrack == nil {
            do {
                return try await player.send(.seek(to: seconds))
            } catch where error.code == .invalidTransition {
                // The player moved on after its state was read (it began preparing the next
                // song, or the song ended): the song starts again from `seconds` instead.
                logger.debug("MPD seek: the player's state changed; the song starts there", metadata: ["state": "\(error.rejectedState.map { "\($0)" } ?? "-")"])
            } catch {
                throw ack(for: error)
            }
        }
        try await play(songID: id, start: seconds)
    }

    /// Changes the options; clients in `idle` hear of it when anything changed, or always for
    /// the options MPD always announces (`crossfade`, MixRamp, `replay_gain_mode`).
    func setOptions(announcingAlways: Bool = false, _ change: (inout MPDQueue) -> Void) async throws(MPDAck) {
        let before = queue.options
        change(&queue)
        guard queue.options != before else {
            if announcingAlways { changed([.options]) }
            return
        }
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
            return QueueItem(
                track: item.track, crossfadeIntoNext: songCrossfade, startPosition: item.startPosition, isVoice: item.isVoice,
                triesOnce: item.triesOnce)
        }
    }

    /// A song's items as the player is told them: with this song's own track ids, the crossfade
    /// into the next song, and from the start of the range a client gave it (`rangeid`).
    func playItems(of song: MPDQueue.Song, entry: MPDEntry, play: Int = 0) -> [QueueItem] {
        var items = withCrossfades(songItems(of: entry, songID: song.id, play: play))
        if let range = song.range, let item = items.first {
            items[0] = QueueItem(
                track: item.track, crossfadeIntoNext: item.crossfadeIntoNext, startPosition: range.startSeconds, isVoice: item.isVoice,
                triesOnce: item.triesOnce)
        }
        return items
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
            items += playItems(of: song, entry: catalog.refreshedEpisode(song.entry), play: next == id ? 1 : 0)
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
        let items = playItems(of: song, entry: song.entry)
        guard let index = items.firstIndex(where: { $0.track.id == track.id }) else { return }
        let upcoming = Array(items[(index + 1)...]) + (song.entry.layers == nil ? upcomingItems(after: id) : [])
        try await send(.setUpcoming(UpcomingChange(items: upcoming, crossfadeFromCurrent: items[index].crossfadeIntoNext)))
        requestEnd.expect(lastItemID: (upcoming.last ?? items[index]).track.id)
    }
}
