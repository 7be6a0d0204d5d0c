import Foundation
import MPDProtocol
import PlayerKit

/// The queue: adding, removing, moving, and telling clients what it holds.
extension MPDPlayerBackend {
    static let queueCommands: [MPDCommandEntry] = [
        MPDCommandEntry("add", 1...2, .add) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let position = a.count == 2 ? try b.insertPosition(a.command.arguments[1]) : nil
            try await b.add(try b.catalog.entries(for: a.command.arguments[0]), at: position)
            return .empty
        },
        MPDCommandEntry("addid", 1...2, .add) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let position = a.count == 2 ? try b.insertPosition(a.command.arguments[1]) : nil
            let entries = try b.catalog.entries(for: a.command.arguments[0])
            // `addid` adds one song, as MPD's does: a directory is the client's error.
            guard entries.count == 1 else { throw MPDAck(.noExist, entries.isEmpty ? "No such song" : "addid adds one song, not a directory") }
            let ids = try await b.add(entries, at: position)
            return MPDResponse([.init("Id", String(ids[0]))])
        },
        MPDCommandEntry("delete", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            // An END past the end is cut; a START past it is the client's error (MPD's `CheckClip`).
            let range = try MPDRange(parsing: a.command.arguments[0]).checked(count: b.queue.count)
            guard !range.isEmpty else { return .empty }
            try await b.remove { (q: inout MPDQueue) throws(MPDAck) in try q.delete(range) }
            return .empty
        },
        MPDCommandEntry("deleteid", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let id = try MPDArgumentParser.unsigned(a.command.arguments[0])
            try await b.remove { (q: inout MPDQueue) throws(MPDAck) in try q.delete(id: id) }
            return .empty
        },
        MPDCommandEntry("clear", 0...0, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            if await b.player.state.allows(.stop) { try await b.send(.stop) }
            b.queue.clear()
            b.changed([.playlist])
            return .empty
        },
        MPDCommandEntry("move", 2...2, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let range = try MPDRange(parsing: a.command.arguments[0])
            guard !range.isOpenEnded else { throw MPDAck(.argument, "Open-ended range not supported") }
            let to = try b.moveDestination(a.command.arguments[1], moving: range)
            try b.queue.move(range.start..<range.end, to: to)
            try await b.queueChanged()
            return .empty
        },
        MPDCommandEntry("moveid", 2...2, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let id = try MPDArgumentParser.unsigned(a.command.arguments[0])
            guard let position = b.queue.position(ofID: id) else { throw MPDAck(.noExist, "No such song") }
            let to = try b.moveDestination(a.command.arguments[1], moving: .single(position))
            try b.queue.move(position..<(position + 1), to: to)
            try await b.queueChanged()
            return .empty
        },
        MPDCommandEntry("swap", 2...2, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let first = try MPDArgumentParser.unsigned(a.command.arguments[0])
            let second = try MPDArgumentParser.unsigned(a.command.arguments[1])
            try b.queue.swap(first, second)
            try await b.queueChanged()
            return .empty
        },
        MPDCommandEntry("swapid", 2...2, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let first = try MPDArgumentParser.unsigned(a.command.arguments[0])
            let second = try MPDArgumentParser.unsigned(a.command.arguments[1])
            try b.queue.swap(id: first, id: second)
            try await b.queueChanged()
            return .empty
        },
        MPDCommandEntry("shuffle", 0...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let range = a.count == 1 ? try MPDRange(parsing: a.command.arguments[0]) : .all
            let positions = try range.checked(count: b.queue.count)
            let playing = await b.isPlaying()
            try await b.changingQueue { (q: inout MPDQueue) throws(MPDAck) in try q.shuffle(positions, playing: playing) }
            return .empty
        },
        // Priorities order random play (a higher one sooner), as in MPD; without `random` they
        // are kept and told, and change nothing.
        MPDCommandEntry("prio", 2..., .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let priority = try MPDArgumentParser.unsigned(a.command.arguments[0], max: 255)
            // Range by range, as MPD sets them: a bad one stops the rest, the ones before it stay.
            try await b.changingQueue { (q: inout MPDQueue) throws(MPDAck) in
                for text in a.command.arguments.dropFirst() { try q.setPriority(priority, positions: try MPDRange(parsing: text).checked(count: q.count)) }
            }
            return .empty
        },
        MPDCommandEntry("prioid", 2..., .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let priority = try MPDArgumentParser.unsigned(a.command.arguments[0], max: 255)
            try await b.changingQueue { (q: inout MPDQueue) throws(MPDAck) in
                for text in a.command.arguments.dropFirst() { try q.setPriority(priority, id: try MPDArgumentParser.unsigned(text)) }
            }
            return .empty
        },
        MPDCommandEntry("rangeid", 2...2, .add) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let id = try MPDArgumentParser.unsigned(a.command.arguments[0])
            guard let (start, end) = MPDPlayerBackend.timeRange(a.command.arguments[1]) else { throw MPDAck(.argument, "Bad range") }
            try b.queue.setRange(id: id, start: start, end: end, playing: await b.isPlaying())
            try await b.queueChanged()
            return .empty
        },
        MPDCommandEntry("addtagid", 3...3, .add) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let id = try MPDArgumentParser.unsigned(a.command.arguments[0])
            let name = a.command.arguments[1]
            guard let tag = MPDTagNames.canonical(name) else { throw MPDAck(.argument, "Unknown tag type: \(name)") }
            try b.queue.editTags(id: id) { $0.add(tag, a.command.arguments[2]) }
            try await b.queueChanged()
            return .empty
        },
        MPDCommandEntry("cleartagid", 1...2, .add) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let id = try MPDArgumentParser.unsigned(a.command.arguments[0])
            var tag: String?
            if a.count == 2 {
                let name = a.command.arguments[1]
                guard let known = MPDTagNames.canonical(name) else { throw MPDAck(.argument, "Unknown tag type: \(name)") }
                tag = known
            }
            try b.queue.editTags(id: id) { $0.clear(tag) }
            try await b.queueChanged()
            return .empty
        },
        MPDCommandEntry("playlistinfo", 0...1, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let range = a.count == 1 ? try MPDRange(parsing: a.command.arguments[0]) : .all
            return b.songs(try range.checked(count: b.queue.count), for: a.command.client)
        },
        MPDCommandEntry("playlistid", 0...1, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            guard a.count == 1 else { return b.songs(0..<b.queue.count, for: a.command.client) }
            guard let position = b.queue.position(ofID: try MPDArgumentParser.unsigned(a.command.arguments[0])) else {
                throw MPDAck(.noExist, "No such song")
            }
            return b.songs(position..<(position + 1), for: a.command.client)
        },
        MPDCommandEntry("playlist", 0...0, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            // MPD's old form: `0:file: URI`, a line per song.
            var r = MPDResponse()
            for (i, song) in b.queue.songs.enumerated() { r.append("\(i):file", song.entry.uri) }
            return r
        },
        MPDCommandEntry("plchanges", 1...2, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let (version, range) = try b.changesArguments(a)
            var r = MPDResponse()
            for position in b.queue.changes(since: version) where range.contains(position) {
                r.append(contentsOf: b.songs(position..<(position + 1), for: a.command.client))
            }
            return r
        },
        MPDCommandEntry("plchangesposid", 1...2, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let (version, range) = try b.changesArguments(a)
            var r = MPDResponse()
            for position in b.queue.changes(since: version) where range.contains(position) {
                r.append("cpos", String(position))
                r.append("Id", String(b.queue.songs[position].id))
            }
            return r
        },
    ]

    /// `plchanges VERSION [START:END]`: a version read as MPD reads it (`-1` is newer than any,
    /// so everything), a range cut to the queue at both ends, never an error.
    func changesArguments(_ a: MPDArguments) throws(MPDAck) -> (version: Int, positions: Range<Int>) {
        let version = try MPDArgumentParser.u32(a.command.arguments[0])
        let range = a.count == 2 ? try MPDRange(parsing: a.command.arguments[1]) : .all
        return (version, range.relaxed(to: queue.count))
    }

    /// `rangeid`'s `START:END` in seconds, either side may be empty, as MPD's `parse_time_range`
    /// reads it: nil when it is not a range, has a negative side, or ends before it starts. An
    /// empty or 0 END is no end (returned as 0).
    static func timeRange(_ text: String) -> (start: Double, end: Double)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        func side(_ part: Substring) -> Double? {
            if part.isEmpty { return 0 }
            guard let value = Float(part), value >= 0 else { return nil }
            return Double(value)
        }
        guard let start = side(text[..<colon]), let end = side(text[text.index(after: colon)...]) else { return nil }
        guard end == 0 || end > start else { return nil }
        return (start, end)
    }

    /// Whether the player is on a song, playing or paused (MPD's `playing`).
    func isPlaying() async -> Bool { (try? await requirePlaying()) != nil }

    /// The current song's position, which a relative position (`+N`, `-N`) needs.
    func requireCurrentPosition() throws(MPDAck) -> Int {
        guard let position = queue.currentPosition else { throw MPDAck(.playerSync, "No current song") }
        return position
    }

    /// Where `add` and `addid` put a song, as MPD's `ParseInsertPosition` reads it: a position up
    /// to the end of the queue, or relative to the current song (`+N` after it, `-N` before it).
    func insertPosition(_ text: String) throws(MPDAck) -> Int {
        let length = queue.count
        let rest = String(text.dropFirst())
        if text.hasPrefix("+") {
            let current = try requireCurrentPosition()
            return current + 1 + (try MPDArgumentParser.unsigned(rest, max: length - current - 1))
        }
        if text.hasPrefix("-") {
            let current = try requireCurrentPosition()
            return current - (try MPDArgumentParser.unsigned(rest, max: current))
        }
        return try MPDArgumentParser.unsigned(text, max: length)
    }

    /// Where `move` and `moveid` put songs, as MPD's `ParseMoveDestination` reads it: the first
    /// song's new position, or relative to the current song (which cannot be among those moved).
    /// MPD's unsigned bounds wrap round when the range is longer than the queue: any number is
    /// then taken here too, and the move itself is refused.
    func moveDestination(_ text: String, moving range: MPDRange) throws(MPDAck) -> Int {
        let length = queue.count
        let count = range.count
        func bound(_ value: Int) -> Int { value >= 0 ? value : Int(UInt32.max) }
        guard text.hasPrefix("+") || text.hasPrefix("-") else {
            return try MPDArgumentParser.unsigned(text, max: bound(length - count))
        }
        var current = try requireCurrentPosition()
        guard !(range.start..<range.end).contains(current) else {
            throw MPDAck(.argument, "Cannot move current song relative to itself")
        }
        if current >= range.end { current -= count }
        let offset = try MPDArgumentParser.unsigned(String(text.dropFirst()), max: bound(length - current - count))
        return text.hasPrefix("+") ? current + 1 + offset : current - offset
    }

    /// Adds songs (at `position`, or the end) and tells the player what now follows.
    @discardableResult
    func add(_ entries: [MPDEntry], at position: Int?) async throws(MPDAck) -> [Int] {
        guard !entries.isEmpty else { throw MPDAck(.noExist, "Nothing to add there") }
        guard queue.count + entries.count <= MPDQueue.maximumLength else { throw MPDAck(.playlistMax, "Playlist is too large") }
        var ids: [Int] = []
        for (i, entry) in entries.enumerated() { ids.append(try queue.add(entry, at: position.map { $0 + i })) }
        logger.info("MPD added songs", metadata: ["count": "\(entries.count)"])
        try await queueChanged()
        return ids
    }

    /// Removes songs; removing the song being heard moves on to the one that followed it, as
    /// MPD does (whatever `single` says), or stops when none did; when paused it stops, with the
    /// song that followed current.
    func remove(_ change: (inout MPDQueue) throws(MPDAck) -> Void) async throws(MPDAck) {
        let current = queue.currentID
        // Under `single` with `repeat` (and no `consume`) the song itself would have come next.
        let repeatsItself = queue.options.single != .off && queue.options.repeat && queue.options.consume == .off
        let following = current.map { repeatsItself ? [] : queue.upcomingIgnoringSingle(after: $0) } ?? []
        try change(&queue)
        if let current, queue.position(ofID: current) == nil {
            let state = await player.state
            if ![.idle, .finished, .failed].contains(state.name) {
                let next = following.first { queue.position(ofID: $0) != nil }
                let paused = state.name == .paused || state.name == .crossfadePaused
                if let next, !paused {
                    changed([.playlist])
                    return try await play(songID: next)
                }
                queue.setCurrent(next)
                if state.allows(.stop) {
                    stopping = next != nil
                    try await send(.stop)
                }
            }
        }
        try await queueChanged()
    }

    /// Runs a change of the queue that may fail part way (as MPD's `prio` over several ranges):
    /// what it did before failing is told to clients and the player all the same.
    func changingQueue(_ change: (inout MPDQueue) throws(MPDAck) -> Void) async throws(MPDAck) {
        let before = queue.version
        var failure: MPDAck?
        do { try change(&queue) } catch { failure = error }
        if queue.version != before { try await queueChanged() }
        if let failure { throw failure }
    }

    func queueChanged() async throws(MPDAck) {
        changed([.playlist])
        try await sendUpcoming()
    }

    /// Songs in `range` (positions) as `playlistinfo` tells them to `client`: the current
    /// stream's title is its latest; a client's tag edits, a song's range (`Range:` after `file`)
    /// and its priority (`Prio:` after `Id`) as MPD prints them; only the tags the client
    /// asked for (`tagtypes`).
    func songs(_ range: Range<Int>, for client: MPDClientState = MPDClientState()) -> MPDResponse {
        var r = MPDResponse()
        for position in range where queue.songs.indices.contains(position) {
            r.append(contentsOf: client.songFields(MPDResponse(songFields(at: position))))
        }
        return r
    }

    /// The lines of the song at `position` (a position of the queue), every tag included.
    func songFields(at position: Int) -> [MPDResponse.Field] {
        let song = queue.songs[position]
        let live = song.id == queue.currentID ? view.metadata : nil
        var fields = song.tagEdits.applied(to: MPDStatus.songFields(song.entry, position: position, id: song.id, live: live)).fields
        if let range = song.range { fields.insert(.init("Range", range.field), at: fields.firstIndex { $0.key == "file" }.map { $0 + 1 } ?? 0) }
        if song.priority != 0 { fields.append(.init("Prio", String(song.priority))) }
        return fields
    }
}
