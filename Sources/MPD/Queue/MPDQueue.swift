import MPDProtocol
import PlayerCore

/// The MPD queue (MPD's "current playlist"): songs with ids that never repeat, a version that
/// every change raises (so `plchanges` can tell a client what moved), the current song and the
/// playback options. A pure value: the backend changes it and tells the player what follows.
/// Its edits are MPD 0.23's (`queue/PlaylistEdit.cxx`): the same checks, the same songs marked
/// changed, the same current song after them.
package struct MPDQueue: Sendable {
    package struct Song: Sendable, Hashable {
        package let id: Int
        package var entry: MPDEntry
        /// The queue version at which this song was added or last moved.
        package var changedAt: Int
        /// MPD's priority, 0 to 255 (`prio`): in random order a song of a higher priority plays
        /// before those of a lower one. A song's priority goes back to 0 when it starts.
        package var priority = 0
        /// The part of the song that plays (`rangeid`); nil: all of it.
        package var range: SongRange?
        /// Tags a client set or cleared on this entry (`addtagid`, `cleartagid`).
        package var tagEdits = TagEdits()
    }

    /// Where a song starts and ends (`rangeid START:END`), in milliseconds as MPD keeps it.
    package struct SongRange: Sendable, Hashable {
        package var start: Int
        /// 0: to the song's end.
        package var end: Int

        package var startSeconds: Double { Double(start) / 1000 }

        /// The `Range:` field as MPD prints it: `START-END`, or `START-` without an end.
        package var field: String {
            func seconds(_ ms: Int) -> String { "\(ms / 1000).\(String(format: "%03d", ms % 1000))" }
            return end > 0 ? "\(seconds(start))-\(seconds(end))" : "\(seconds(start))-"
        }
    }

    /// What clients changed in a song's tags (as MPD lets them for streams): values added, and
    /// tags cleared, the song's own values of which are no longer told.
    package struct TagEdits: Sendable, Hashable {
        /// Every tag the song came with is cleared (`cleartagid ID` without a tag).
        package var clearsAll = false
        /// Tags the song came with that are cleared, named as `MPDTagNames` spells them.
        package var cleared: Set<String> = []
        /// Tags added, in the order they were, after what is left of the song's own.
        package var added: [MPDResponse.Field] = []

        package init() {}

        package mutating func add(_ tag: String, _ value: String) { added.append(.init(tag, value)) }

        /// Clears `tag` (every tag when nil), the values added to it included.
        package mutating func clear(_ tag: String?) {
            guard let tag else {
                self = TagEdits()
                clearsAll = true
                return
            }
            cleared.insert(tag)
            added.removeAll { $0.key == tag }
        }

        /// A song's fields with the edits made: a cleared tag's fields left out, the added ones
        /// after the song's own tags (before `Pos`, or at the end).
        package func applied(to fields: MPDResponse) -> MPDResponse {
            guard clearsAll || !cleared.isEmpty || !added.isEmpty else { return fields }
            var kept = fields.fields.filter { field in
                !((clearsAll || cleared.contains(field.key)) && MPDTagNames.all.contains(field.key))
            }
            kept.insert(contentsOf: added, at: kept.firstIndex { $0.key == "Pos" } ?? kept.count)
            return MPDResponse(kept)
        }
    }

    /// MPD's `single`: stop after the current song, once or always.
    package enum SingleMode: String, Sendable, Hashable {
        case off = "0", on = "1", oneshot
    }

    /// MPD's `consume`: a song that has played leaves the queue, always or once (`oneshot`,
    /// MPD 0.24's, which turns itself off once it has removed a song).
    package enum ConsumeMode: String, Sendable, Hashable {
        case off = "0", on = "1", oneshot
    }

    /// MPD's `replay_gain_mode` names.
    package enum ReplayGainMode: String, Sendable, Hashable, CaseIterable {
        case off, track, album, auto
    }

    package struct Options: Sendable, Hashable {
        package var random = false
        package var `repeat` = false
        package var single = SingleMode.off
        package var consume = ConsumeMode.off
        /// Seconds of crossfade between songs (MPD's `xfade`); 0 is gapless.
        package var crossfade = 0
        /// MPD's MixRamp threshold and delay, kept and told as MPD tells them; Tonearm's
        /// crossfades do not read MixRamp tags, so they change no crossfade.
        package var mixRampDB: Float = 0
        package var mixRampDelay: Float = 0
        /// The `replay_gain_mode` a client chose, which the player's levelling follows
        /// (`MPDPlayerBackend+ReplayGain`).
        package var replayGain = ReplayGainMode.off
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
        touch(at..<songs.count)
        if options.random {
            // A new song plays somewhere after the current one, as MPD places it, and after the
            // songs there a client gave a priority (it has none).
            var after = currentID.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            if let last = order[after...].lastIndex(where: { priority(ofID: $0) > 0 }) { after = last + 1 }
            order.insert(id, at: Int.random(in: after...order.count, using: &random))
        } else {
            order.insert(id, at: at)
        }
        return id
    }

    /// Removes the songs in `range` (positions); an empty range changes nothing, as in MPD.
    /// Removing the current song leaves none current.
    package mutating func delete(_ range: Range<Int>) throws(MPDAck) {
        guard range.lowerBound >= 0, range.upperBound <= songs.count else { throw MPDAck(.argument, "Bad song index") }
        guard !range.isEmpty else { return }
        version += 1
        let removed = Set(songs[range].map(\.id))
        songs.removeSubrange(range)
        if let currentID, removed.contains(currentID) { self.currentID = nil }
        order.removeAll { removed.contains($0) }
        touch(range.lowerBound..<songs.count)
    }

    package mutating func delete(id: Int) throws(MPDAck) {
        guard let position = position(ofID: id) else { throw MPDAck(.noExist, "No such song") }
        try delete(position..<(position + 1))
    }

    /// Moves the songs in `range` so the first of them is at `to` (positions after the move),
    /// checked as MPD's `MoveRange` checks it; a move to where the songs are changes nothing.
    package mutating func move(_ range: Range<Int>, to: Int) throws(MPDAck) {
        let last = to + range.count - 1
        guard songs.indices.contains(range.lowerBound), songs.indices.contains(range.upperBound - 1), to >= 0, last >= 0, last < songs.count
        else { throw MPDAck(.argument, "Bad song index") }
        guard range.lowerBound != to else { return }
        version += 1
        let moving = Array(songs[range])
        songs.removeSubrange(range)
        songs.insert(contentsOf: moving, at: to)
        // The songs that moved, and those between that made room: what MPD marks.
        touch(min(range.lowerBound, to)..<max(range.upperBound, to + range.count))
        if !options.random { order = songs.map(\.id) }
    }

    /// Swaps the songs at two positions (`swap`); the order they play in follows their places
    /// (in random order each keeps its turn).
    package mutating func swap(_ first: Int, _ second: Int) throws(MPDAck) {
        guard songs.indices.contains(first), songs.indices.contains(second) else { throw MPDAck(.argument, "Bad song index") }
        version += 1
        songs.swapAt(first, second)
        songs[first].changedAt = version
        songs[second].changedAt = version
        if !options.random { order = songs.map(\.id) }
    }

    package mutating func swap(id first: Int, id second: Int) throws(MPDAck) {
        guard let a = position(ofID: first), let b = position(ofID: second) else { throw MPDAck(.noExist, "No such song") }
        try swap(a, b)
    }

    /// Shuffles the songs in `range` (positions), as MPD's `shuffle` does: while playing, the
    /// current song, if in the range, moves to its start and the rest is shuffled after it;
    /// while stopped, no song stays current. Fewer than two songs change nothing.
    package mutating func shuffle(_ range: Range<Int>, playing: Bool) throws(MPDAck) {
        guard range.lowerBound >= 0, range.upperBound <= songs.count else { throw MPDAck(.argument, "Bad song index") }
        guard range.count > 1 else { return }
        version += 1
        var shuffled = range
        if playing, let current = currentPosition {
            if range.contains(current) {
                songs.swapAt(range.lowerBound, current)
                shuffled = (range.lowerBound + 1)..<range.upperBound
            }
        } else if !playing {
            currentID = nil
        }
        var part = Array(songs[shuffled])
        part.shuffle(using: &random)
        songs.replaceSubrange(shuffled, with: part)
        touch(range)
        if !options.random { order = songs.map(\.id) }
    }

    /// Sets the priority of the songs at `positions` (`prio`); in random order each moves to play
    /// after the current song before every song of a lower priority, as MPD moves it. A non-empty
    /// range raises the version even when no priority changes, as in MPD.
    package mutating func setPriority(_ priority: Int, positions: Range<Int>) throws(MPDAck) {
        guard positions.lowerBound >= 0, positions.upperBound <= songs.count else { throw MPDAck(.argument, "Bad song index") }
        guard !positions.isEmpty else { return }
        version += 1
        for position in positions { setPriority(priority, at: position) }
    }

    package mutating func setPriority(_ priority: Int, id: Int) throws(MPDAck) {
        guard let position = position(ofID: id) else { throw MPDAck(.noExist, "No such song") }
        try setPriority(priority, positions: position..<(position + 1))
    }

    private mutating func setPriority(_ priority: Int, at position: Int) {
        let old = songs[position].priority
        guard old != priority else { return }
        songs[position].priority = priority
        songs[position].changedAt = version
        guard options.random else { return }
        let id = songs[position].id
        let current = currentID.flatMap { order.firstIndex(of: $0) }
        guard let from = order.firstIndex(of: id) else { return }
        if let current {
            if from == current { return }
            // A song already played comes again only when raised above the current one.
            if from < current, priority <= old || priority <= self.priority(ofID: order[current]) { return }
        }
        order.remove(at: from)
        let start = currentID.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        let group = order[start...].firstIndex { self.priority(ofID: $0) <= priority } ?? order.count
        order.insert(id, at: group)
        // Somewhere among the songs of its priority, as MPD shuffles it in.
        let same = order[group...].prefix { self.priority(ofID: $0) == priority }.count
        order.swapAt(group, Int.random(in: group..<(group + same), using: &random))
    }

    private func priority(ofID id: Int) -> Int { position(ofID: id).map { songs[$0].priority } ?? 0 }

    /// The part of the song `id` that plays (`rangeid`), checked as MPD checks it: not the song
    /// heard while playing, a start within the song (when its length is known), an end at or
    /// past the song's end taken as none. Tonearm's player starts a song anywhere but cannot
    /// stop it before its end, so an end before it is refused rather than ignored; nor does a
    /// live stream or a session of several stages take a range.
    package mutating func setRange(id: Int, start: Double, end: Double, playing: Bool) throws(MPDAck) {
        guard let position = position(ofID: id) else { throw MPDAck(.noExist, "No such song") }
        if playing, id == currentID { throw MPDAck(.permission, "Cannot edit the current song") }
        let entry = songs[position].entry
        guard entry.items.count == 1, entry.items[0].track.kind != .liveStream else {
            throw MPDAck(.argument, "Only a song of one file or episode takes a range, not a live stream or a session")
        }
        var startMS = Int((start * 1000).rounded(.down))
        var endMS = Int((end * 1000).rounded(.down))
        if let duration = entry.duration {
            let durationMS = Int((duration * 1000).rounded(.down))
            if startMS > durationMS { throw MPDAck(.argument, "Invalid start offset") }
            if endMS >= durationMS { endMS = 0 }
        }
        guard endMS == 0 else {
            throw MPDAck(.argument, "Tonearm plays a song to its end: give a range without an end (START:)")
        }
        if startMS < 0 { startMS = 0 }
        version += 1
        songs[position].range = startMS == 0 ? nil : SongRange(start: startMS, end: 0)
        songs[position].changedAt = version
    }

    /// Changes a song's tags (`addtagid`, `cleartagid`); MPD allows it for streams only, never a
    /// local file (an episode downloaded is a file).
    package mutating func editTags(id: Int, _ change: (inout TagEdits) -> Void) throws(MPDAck) {
        guard let position = position(ofID: id) else { throw MPDAck(.noExist, "No such song") }
        guard songs[position].entry.items.allSatisfy({ !$0.track.url.isFileURL }) else {
            throw MPDAck(.permission, "Cannot edit tags of local file")
        }
        version += 1
        change(&songs[position].tagEdits)
        songs[position].changedAt = version
    }

    package mutating func clear() {
        version += 1
        songs = []
        order = []
        currentID = nil
    }

    /// Makes the song with `id` current; nil when stopped with none.
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
            // The current song stays first; the rest are shuffled after it, the songs of a
            // higher priority first.
            var rest = songs.map(\.id).filter { $0 != currentID }
            rest.shuffle(using: &random)
            let priorities = Dictionary(uniqueKeysWithValues: songs.map { ($0.id, $0.priority) })
            rest = rest.enumerated().sorted { a, b in
                let (pa, pb) = (priorities[a.element] ?? 0, priorities[b.element] ?? 0)
                return pa != pb ? pa > pb : a.offset < b.offset
            }.map(\.element)
            order = (currentID.map { [$0] } ?? []) + rest
        } else {
            order = songs.map(\.id)
        }
    }

    /// Marks the songs at `positions` as changed at this version (their positions moved).
    private mutating func touch(_ positions: Range<Int>) {
        for i in positions where songs.indices.contains(i) { songs[i].changedAt = version }
    }

    // MARK: The player moves on

    /// The song `id` is heard now (the player began it): it is current, and loses its priority,
    /// as in MPD. Returns what clients in `idle` hear of beyond the player itself: the queue,
    /// when the song had a priority.
    package mutating func started(_ id: Int) -> Set<MPDSubsystem> {
        let before = currentID
        setCurrent(id)
        guard let currentID, currentID != before, let position = position(ofID: currentID), songs[position].priority != 0 else { return [] }
        version += 1
        songs[position].priority = 0
        songs[position].changedAt = version
        return [.playlist]
    }

    /// The player finished. After the end of the queue no song is current; a client's `stop`
    /// keeps the song (`keepingCurrent`). Under `single`, MPD 0.23 pauses at the start of the
    /// song after the one that ended; Tonearm's player cannot hold a song before it sounds, so
    /// it stops there instead, with that song current, which `play` goes on with. A `single
    /// oneshot` is then spent.
    package mutating func finished(keepingCurrent: Bool) -> Set<MPDSubsystem> {
        var subsystems: Set<MPDSubsystem> = []
        if !keepingCurrent {
            let waiting = options.single == .off ? nil : currentID.flatMap { nextIgnoringSingle(after: $0) }
            if let waiting { subsystems.formUnion(started(waiting)) } else { setCurrent(nil) }
        }
        if options.single == .oneshot {
            options.single = .off
            subsystems.insert(.options)
        }
        return subsystems
    }

    /// With `consume`, removes the song the queue moved on from (`left`, for the current song
    /// now): the queue's one rule (`QueueCursor.consumed`) says which. A `consume oneshot` is
    /// spent once it removed a song.
    package mutating func consume(leaving left: Int?) -> Set<MPDSubsystem> {
        guard let gone = cursor.consumed(leaving: left, for: currentID) else { return [] }
        try? delete(id: gone)
        guard options.consume == .oneshot else { return [.playlist] }
        options.consume = .off
        return [.playlist, .options]
    }

    // MARK: What plays

    /// The songs (positions) changed since `version`, in order, as `plchanges` lists them; a
    /// version newer than the queue's asks for every song, as MPD answers it.
    package func changes(since version: Int) -> [Int] {
        guard version <= self.version else { return Array(songs.indices) }
        return songs.indices.filter { songs[$0].changedAt > version }
    }

    /// The queue as the rule every queue follows sees it (`QueueCursor`): the songs in play
    /// order, a session with layers playing alone, the options and the current song. MPD's queue
    /// keeps only what the rule does not: ids, versions and the random order.
    package var cursor: QueueCursor<Int> {
        let playsAlone = Dictionary(uniqueKeysWithValues: songs.map { ($0.id, $0.entry.layers != nil) })
        return QueueCursor(
            entries: order.map { QueueCursor.Entry(id: $0, playsAlone: playsAlone[$0] ?? false) },
            options: QueueOptions(repeat: options.repeat, single: options.single.rule, consume: options.consume != .off),
            current: currentID)
    }

    /// The ids of the songs that play after `id`, in play order, as far as the options say:
    /// nothing with `single` (the song again with `single` and `repeat`), and with `repeat` the
    /// whole queue once more after its end, so the player crossfades across the wrap too.
    package func upcoming(after id: Int) -> [Int] { cursor.upcoming(after: id) }

    /// The songs after `id` in play order whatever `single` says, as MPD's `next` and a removal
    /// of the song heard go on: `repeat` wraps, `consume` leaves `id` out.
    package func upcomingIgnoringSingle(after id: Int) -> [Int] {
        var rule = cursor
        rule.options.single = .off
        return rule.upcoming(after: id)
    }

    /// The song a client's `next` goes to (nil: the end of the queue).
    package func nextIgnoringSingle(after id: Int) -> Int? { upcomingIgnoringSingle(after: id).first }

    /// The `nextsong` of `status`, as MPD tells it: the song itself with `single` and `repeat`,
    /// else the next in play order whatever `single` says (it plays after a `next`, or after
    /// `play` once `single` has stopped there).
    package var nextSongForStatus: Int? {
        guard let currentID else { return nil }
        if options.single != .off, options.repeat { return currentID }
        return nextIgnoringSingle(after: currentID)
    }

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
