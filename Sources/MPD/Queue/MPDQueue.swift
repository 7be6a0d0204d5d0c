import MPDProtocol
import PlayerCore

/// The MPD queue (MPD's "current playlist"): songs with ids that never repeat, a version that
/// every change raises (so `plchanges` can tell a client what moved), the current song and the
/// playback options. A pure value: the backend changes it and tells the player what follows.
package struct MPDQueue: Sendable {
    package struct Song: Sendable, Hashable {
        package let id: Int
        package var entry: MPDEntry
        /// The queue version at which this song was added or last moved.
        package var changedAt: Int
    }

    /// MPD's `single`: stop after the current song, once or always.
    package enum SingleMode: String, Sendable, Hashable {
        case off = "0", on = "1", oneshot
    }

    package struct Options: Sendable, Hashable {
        package var random = false
        package var `repeat` = false
        package var single = SingleMode.off
        package var consume = false
        /// Seconds of crossfade between songs (MPD's `xfade`); 0 is gapless.
        package var crossfade = 0
        package init() {}
    }

    /// At most this many songs (MPD's default `max_playlist_length` is 16,384).
    package static let maximumLength = 16_384

    package private(set) var songs: [Song] = []
    /// Starts at 1 and rises with every change, as MPD's does; 0 asks for everything in `plchanges`.
    package private(set) var version = 1
    private var nextID = 1
    /// The current song's id, if any (it stays while stopped, as MPD's does).
    package private(set) var currentID: Int?
    package var options = Options()
    /// Random order: song ids in the order they play (every song once).
    private var order: [Int] = []
    private var random: SeededRandom

    package init(seed: UInt64 = 0x5EED) { random = SeededRandom(seed: seed) }

    package var count: Int { songs.count }

    package func position(ofID id: Int) -> Int? { songs.firstIndex { $0.id == id } }
    package var currentPosition: Int? { currentID.flatMap(position(ofID:)) }

    package func song(at position: Int) throws(MPDAck) -> Song {
        guard songs.indices.contains(position) else { throw MPDAck(.argument, "Bad song index") }
        return songs[position]
    }

    package func song(id: Int) throws(MPDAck) -> Song {
        guard let position = position(ofID: id) else { throw MPDAck(.noExist, "No such song") }
        return songs[position]
    }

    // MARK: Changes

    /// Adds a song at `position` (the end when nil); returns its id.
    @discardableResult
    package mutating func add(_ entry: MPDEntry, at position: Int? = nil) throws(MPDAck) -> Int {
        guard songs.count < Self.maximumLength else { throw MPDAck(.playlistMax, "Playlist is too large") }
        let at = position ?? songs.count
        guard (0...songs.count).contains(at) else { throw MPDAck(.argument, "Bad song index") }
        version += 1
        let id = nextID
        nextID += 1
        songs.insert(Song(id: id, entry: entry, changedAt: version), at: at)
        touch(from: at)
        if options.random {
            // A new song plays somewhere after the current one, as MPD places it.
            let after = currentID.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            order.insert(id, at: Int.random(in: after...order.count, using: &random))
        } else {
            order.insert(id, at: at)
        }
        return id
    }

    /// Removes the songs in `range` (positions). Removing the current song leaves none current.
    package mutating func delete(_ range: Range<Int>) throws(MPDAck) {
        guard range.lowerBound >= 0, range.upperBound <= songs.count, !range.isEmpty else { throw MPDAck(.argument, "Bad song index") }
        version += 1
        let removed = Set(songs[range].map(\.id))
        songs.removeSubrange(range)
        if let currentID, removed.contains(currentID) { self.currentID = nil }
        order.removeAll { removed.contains($0) }
        touch(from: range.lowerBound)
    }

    package mutating func delete(id: Int) throws(MPDAck) {
        guard let position = position(ofID: id) else { throw MPDAck(.noExist, "No such song") }
        try delete(position..<(position + 1))
    }

    /// Moves the songs in `range` so the first of them is at `to` (positions after the move).
    package mutating func move(_ range: Range<Int>, to: Int) throws(MPDAck) {
        guard range.lowerBound >= 0, range.upperBound <= songs.count, !range.isEmpty,
            to >= 0, to + range.count <= songs.count
        else { throw MPDAck(.argument, "Bad song index") }
        version += 1
        let moving = Array(songs[range])
        songs.removeSubrange(range)
        songs.insert(contentsOf: moving, at: to)
        touch(from: min(range.lowerBound, to))
        if !options.random { order = songs.map(\.id) }
    }

    package mutating func move(id: Int, to: Int) throws(MPDAck) {
        guard let position = position(ofID: id) else { throw MPDAck(.noExist, "No such song") }
        try move(position..<(position + 1), to: to)
    }

    /// Shuffles the songs in `range` (positions), as `shuffle` does.
    package mutating func shuffle(_ range: Range<Int>) throws(MPDAck) {
        guard range.lowerBound >= 0, range.upperBound <= songs.count else { throw MPDAck(.argument, "Bad song index") }
        guard range.count > 1 else { return }
        version += 1
        var part = Array(songs[range])
        part.shuffle(using: &random)
        songs.replaceSubrange(range, with: part)
        touch(from: range.lowerBound)
        if !options.random { order = songs.map(\.id) }
    }

    package mutating func clear() {
        version += 1
        songs = []
        order = []
        currentID = nil
    }

    /// Makes the song with `id` current (the player began it); nil when stopped with none.
    package mutating func setCurrent(_ id: Int?) {
        currentID = id.flatMap { position(ofID: $0) == nil ? nil : $0 }
    }

    /// Replaces a song's tags (a stream told its title), keeping its place and id.
    package mutating func update(id: Int, _ change: (inout MPDEntry) -> Void) {
        guard let position = position(ofID: id) else { return }
        version += 1
        change(&songs[position].entry)
        songs[position].changedAt = version
    }

    package mutating func setRandom(_ on: Bool) {
        guard on != options.random else { return }
        options.random = on
        if on {
            // The current song stays first; the rest are shuffled after it.
            var rest = songs.map(\.id).filter { $0 != currentID }
            rest.shuffle(using: &random)
            order = (currentID.map { [$0] } ?? []) + rest
        } else {
            order = songs.map(\.id)
        }
    }

    /// Marks every song from `position` on as changed (their positions moved).
    private mutating func touch(from position: Int) {
        for i in position..<songs.count { songs[i].changedAt = version }
    }

    // MARK: What plays

    /// The songs (positions) changed since `version`, in order, as `plchanges` lists them.
    package func changes(since version: Int) -> [Int] {
        songs.indices.filter { songs[$0].changedAt > version }
    }

    /// The queue as the rule every queue follows sees it (`QueueCursor`): the songs in play
    /// order, a session with layers playing alone, the options and the current song. MPD's queue
    /// keeps only what the rule does not: ids, versions and the random order.
    package var cursor: QueueCursor<Int> {
        let playsAlone = Dictionary(uniqueKeysWithValues: songs.map { ($0.id, $0.entry.layers != nil) })
        return QueueCursor(
            entries: order.map { QueueCursor.Entry(id: $0, playsAlone: playsAlone[$0] ?? false) },
            options: QueueOptions(repeat: options.repeat, single: options.single.rule, consume: options.consume),
            current: currentID)
    }

    /// The ids of the songs that play after `id`, in play order, as far as the options say:
    /// nothing with `single` (the song again with `single` and `repeat`), and with `repeat` the
    /// whole queue once more after its end, so the player crossfades across the wrap too.
    package func upcoming(after id: Int) -> [Int] { cursor.upcoming(after: id) }

    /// The song that plays first when a client says `play` without a position: the current one,
    /// else the first in play order.
    package var firstToPlay: Int? { cursor.firstToPlay }

    /// The song before `id` in play order (`previous`), wrapping with `repeat`.
    package func previous(before id: Int) -> Int? { cursor.previous(before: id) }
}

extension MPDQueue.SingleMode {
    /// The same choice in the words of the shared queue rule.
    var rule: QueueOptions.Single {
        switch self {
        case .off: .off
        case .on: .on
        case .oneshot: .oneshot
        }
    }
}
