/// Where a queue is and what it plays next: the one rule both of Tonearm's queues follow (MPD's
/// current playlist and the library's up-next), so `repeat`, `single`, `consume`, `previous`, a
/// failure and a session that plays alone mean the same wherever a listener meets them.
///
/// A pure value over the entries in play order and the current entry. Random play is only
/// another order: the owner keeps it, with its ids, versions and storage, and builds a cursor
/// from it to ask. The cursor's own changes (`QueueCursor+Changes`) keep the current entry one
/// that is in the queue, or none: the cursor is then at the end.
public struct QueueCursor<ID: Hashable & Sendable>: Sendable, Hashable {
    /// One entry of a queue, as far as deciding what plays needs to know it.
    public struct Entry: Sendable, Hashable {
        public var id: ID
        /// The entry is a request of its own (a session with layers: its bed and bells start
        /// with its first stage and close after its last, under no other entry). It is never
        /// requested behind another entry, and nothing is requested behind it.
        public var playsAlone: Bool

        public init(id: ID, playsAlone: Bool = false) {
            self.id = id
            self.playsAlone = playsAlone
        }
    }

    /// The entries in the order they play; each id once.
    public internal(set) var entries: [Entry]
    public var options: QueueOptions
    /// The entry playing (or paused, or stopped on); nil when the cursor is at the end or has
    /// not started.
    public internal(set) var current: ID?

    /// A later entry with an id already seen is left out: an id names one entry. A `current`
    /// that is not among the entries leaves the cursor at the end.
    public init(entries: [Entry], options: QueueOptions = QueueOptions(), current: ID? = nil) {
        var seen = Set<ID>()
        self.entries = entries.filter { seen.insert($0.id).inserted }
        self.options = options
        self.current = current.flatMap { seen.contains($0) ? $0 : nil }
    }

    public func index(of id: ID) -> Int? { entries.firstIndex { $0.id == id } }

    public func contains(_ id: ID) -> Bool { index(of: id) != nil }

    // MARK: What plays

    /// The entry that plays first when the listener says play without naming one: the current
    /// entry, else the first in play order.
    public var firstToPlay: ID? { current ?? entries.first?.id }

    /// The entries that play after `id` when each ends by itself, in order, as far as the
    /// options say: nothing with `single` (`id` again with `single` on and `repeat`); with
    /// `repeat`, the whole queue once more after its end, up to `id` again, so a player told
    /// them crossfades across the wrap too; with `consume`, never `id` again, since it leaves the
    /// queue once it has played. Nothing when `id` is not in the queue.
    public func upcoming(after id: ID) -> [ID] { upcomingEntries(after: id).map(\.id) }

    /// What plays when `id` ends by itself; nil stops there.
    public func next(after id: ID) -> ID? { upcomingEntries(after: id).first?.id }

    /// Where the queue goes on when `id` could not play: the entry after it in play order,
    /// wrapping to the first with `repeat`. `single` does not hold the queue there, since
    /// nothing played to stop after, and it is never `id` itself: an entry that fails is not
    /// tried again in a loop.
    public func afterFailure(of id: ID) -> ID? {
        guard let index = index(of: id) else { return nil }
        if index + 1 < entries.count { return entries[index + 1].id }
        return options.repeat && index > 0 ? entries[0].id : nil
    }

    /// The entry before `id` in play order (`previous`), wrapping to the last with `repeat`.
    public func previous(before id: ID) -> ID? {
        guard let index = index(of: id) else { return nil }
        if index > 0 { return entries[index - 1].id }
        return options.repeat ? entries.last?.id : nil
    }

    /// With `consume`, the entry that leaves the queue as the cursor moves from `left` to
    /// `next` (nil: the end): exactly `left`, once it has finished or been moved past. Nothing
    /// when it plays again, when it has already gone, or without `consume`.
    public func consumed(leaving left: ID?, for next: ID?) -> ID? {
        guard options.consume, let left, left != next, contains(left) else { return nil }
        return left
    }

    // MARK: What is requested

    /// The request that starts with `id`: it, then what `upcoming(after:)` lists, up to the
    /// first entry that plays alone, which is where the queue goes on (`continuesFrom`); only
    /// `id` when it plays alone itself. Empty when `id` is not in the queue.
    public func request(from id: ID) -> Request {
        var request = Request()
        guard let index = index(of: id) else { return request }
        _ = request.offer(entries[index])
        for entry in upcomingEntries(after: id) where !request.offer(entry) { break }
        return request
    }

    /// What the player is told follows `id`, to preload and crossfade into: the rest of the
    /// request that `id` starts.
    public func requestedAhead(of id: ID) -> [ID] { Array(request(from: id).ids.dropFirst()) }

    private func upcomingEntries(after id: ID) -> [Entry] {
        guard let index = index(of: id) else { return [] }
        if options.single != .off { return options.repeat && options.single == .on ? [entries[index]] : [] }
        var upcoming = Array(entries[(index + 1)...])
        if options.repeat { upcoming += entries[...index] }
        if options.consume { upcoming.removeAll { $0.id == id } }
        return upcoming
    }
}
