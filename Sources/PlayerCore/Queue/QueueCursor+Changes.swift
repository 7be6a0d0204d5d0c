extension QueueCursor {
    /// What a move of the cursor did: the entry now current (nil: at the end) and the entry
    /// that left the queue with `consume`, if any.
    public struct Step: Sendable, Hashable {
        public var current: ID?
        public var consumed: ID?

        public init(current: ID?, consumed: ID? = nil) {
            self.current = current
            self.consumed = consumed
        }
    }

    // MARK: The listener edits the queue

    /// Inserts `entry` at `index` in play order (clamped to the queue); false, changing
    /// nothing, when its id is already in the queue.
    @discardableResult
    public mutating func insert(_ entry: Entry, at index: Int) -> Bool {
        guard !contains(entry.id) else { return false }
        entries.insert(entry, at: min(max(index, 0), entries.count))
        return true
    }

    /// Moves the entry `id` to `index` in play order (clamped); the current entry stays current.
    public mutating func move(_ id: ID, to index: Int) {
        guard let from = self.index(of: id) else { return }
        let entry = entries.remove(at: from)
        entries.insert(entry, at: min(max(index, 0), entries.count))
    }

    /// Removes the entry `id`. Removing the current entry moves the cursor on to what would
    /// have played after it, as a listener who deletes what is playing hears what follows; an
    /// entry removed is not consumed.
    @discardableResult
    public mutating func remove(_ id: ID) -> Step {
        guard let index = index(of: id) else { return Step(current: current) }
        guard id == current else {
            entries.remove(at: index)
            return Step(current: current)
        }
        let following = upcoming(after: id).first { $0 != id }
        entries.remove(at: index)
        return arrive(at: following, consumed: nil)
    }

    // MARK: The cursor moves

    /// The current entry ended by itself: the cursor goes on to `next(after:)`, or to the end.
    @discardableResult
    public mutating func end() -> Step {
        guard let current else { return Step(current: nil) }
        return move(to: next(after: current))
    }

    /// The current entry could not play: the cursor goes on to `afterFailure(of:)`, or to the end.
    @discardableResult
    public mutating func fail() -> Step {
        guard let current else { return Step(current: nil) }
        return move(to: afterFailure(of: current))
    }

    /// The listener moves past the current entry (`next`): as if it had ended.
    @discardableResult
    public mutating func skip() -> Step { end() }

    /// The listener goes back (`previous`): to the entry before, else the current one again
    /// from its start.
    @discardableResult
    public mutating func back() -> Step {
        guard let current else { return Step(current: nil) }
        return move(to: previous(before: current) ?? current)
    }

    /// The listener plays the entry `id`; one that is not in the queue changes nothing.
    @discardableResult
    public mutating func play(_ id: ID) -> Step {
        guard contains(id) else { return Step(current: current) }
        return move(to: id)
    }

    /// Moves from the current entry to `next`, consuming the one left.
    private mutating func move(to next: ID?) -> Step {
        let consumed = consumed(leaving: current, for: next)
        if let consumed, let index = index(of: consumed) { entries.remove(at: index) }
        return arrive(at: next, consumed: consumed)
    }

    /// Makes `next` current. Stopping at the end spends `single`'s one shot.
    private mutating func arrive(at next: ID?, consumed: ID?) -> Step {
        current = next.flatMap { contains($0) ? $0 : nil }
        if current == nil, options.single == .oneshot { options.single = .off }
        return Step(current: current, consumed: consumed)
    }
}
