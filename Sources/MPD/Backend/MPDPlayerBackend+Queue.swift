import Foundation
import MPDProtocol
import PlayerKit

/// The queue: adding, removing, moving, and telling clients what it holds.
extension MPDPlayerBackend {
    static let queueCommands: [MPDCommandEntry] = [
        MPDCommandEntry("add", 1...2, .add) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let position = a.count == 2 ? try a.position(1, current: b.queue.currentPosition, count: b.queue.count) : nil
            try await b.add(try b.catalog.entries(for: a.string(0) ?? ""), at: position)
            return .empty
        },
        MPDCommandEntry("addid", 1...2, .add) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let position = a.count == 2 ? try a.position(1, current: b.queue.currentPosition, count: b.queue.count) : nil
            let entries = try b.catalog.entries(for: a.string(0) ?? "")
            // `addid` adds one song, as MPD's does: a directory is the client's error.
            guard entries.count == 1 else { throw MPDAck(.noExist, entries.isEmpty ? "No such song" : "addid adds one song, not a directory") }
            let ids = try await b.add(entries, at: position)
            return MPDResponse([.init("Id", String(ids[0]))])
        },
        MPDCommandEntry("delete", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let range = try a.range(0, count: b.queue.count)
            try await b.remove { (q: inout MPDQueue) throws(MPDAck) in try q.delete(range) }
            return .empty
        },
        MPDCommandEntry("deleteid", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let id = try a.unsigned(0)
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
            let range = try a.range(0, count: b.queue.count)
            let to = try a.position(1, current: b.queue.currentPosition, count: b.queue.count)
            try b.queue.move(range, to: to)
            try await b.queueChanged()
            return .empty
        },
        MPDCommandEntry("moveid", 2...2, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let id = try a.unsigned(0)
            let to = try a.position(1, current: b.queue.currentPosition, count: b.queue.count)
            try b.queue.move(id: id, to: to)
            try await b.queueChanged()
            return .empty
        },
        MPDCommandEntry("shuffle", 0...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let range = a.count == 1 ? try a.range(0, count: b.queue.count) : 0..<b.queue.count
            try b.queue.shuffle(range)
            try await b.queueChanged()
            return .empty
        },
        MPDCommandEntry("playlistinfo", 0...1, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let range = a.count == 1 ? try a.range(0, count: b.queue.count) : 0..<b.queue.count
            guard range.upperBound <= b.queue.count, a.count == 0 || !range.isEmpty || b.queue.count == 0 else {
                throw MPDAck(.argument, "Bad song index")
            }
            return b.songs(range)
        },
        MPDCommandEntry("playlistid", 0...1, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            if a.count == 0 { return b.songs(0..<b.queue.count) }
            guard let position = b.queue.position(ofID: try a.unsigned(0)) else { throw MPDAck(.noExist, "No such song") }
            return b.songs(position..<(position + 1))
        },
        MPDCommandEntry("playlist", 0...0, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            var r = MPDResponse()
            for (i, song) in b.queue.songs.enumerated() { r.append("\(i)", "file: \(song.entry.uri)") }
            return r
        },
        MPDCommandEntry("plchanges", 1...2, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let version = try a.int(0)
            let range = a.count == 2 ? try a.range(1, count: b.queue.count) : 0..<b.queue.count
            var r = MPDResponse()
            for position in b.queue.changes(since: version) where range.contains(position) { r.append(contentsOf: b.songs(position..<(position + 1))) }
            return r
        },
        MPDCommandEntry("plchangesposid", 1...2, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let version = try a.int(0)
            let range = a.count == 2 ? try a.range(1, count: b.queue.count) : 0..<b.queue.count
            var r = MPDResponse()
            for position in b.queue.changes(since: version) where range.contains(position) {
                r.append("cpos", String(position))
                r.append("Id", String(b.queue.songs[position].id))
            }
            return r
        },
    ]

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
    /// MPD does, or stops when none did.
    func remove(_ change: (inout MPDQueue) throws(MPDAck) -> Void) async throws(MPDAck) {
        let current = queue.currentID
        let following = current.map { queue.upcoming(after: $0) } ?? []
        try change(&queue)
        if let current, queue.position(ofID: current) == nil {
            let state = await player.state
            if ![.idle, .finished, .failed].contains(state.name) {
                if let next = following.first(where: { queue.position(ofID: $0) != nil }) {
                    changed([.playlist])
                    return try await play(songID: next)
                }
                if state.allows(.stop) { try await send(.stop) }
            }
        }
        try await queueChanged()
    }

    func queueChanged() async throws(MPDAck) {
        changed([.playlist])
        try await sendUpcoming()
    }

    /// Songs in `range` (positions) as `playlistinfo` tells them; the current stream's title is
    /// its latest.
    func songs(_ range: Range<Int>) -> MPDResponse {
        var r = MPDResponse()
        for position in range where queue.songs.indices.contains(position) {
            let song = queue.songs[position]
            r.append(contentsOf: MPDStatus.songFields(song.entry, position: position, id: song.id, live: song.id == queue.currentID ? view.metadata : nil))
        }
        return r
    }
}
