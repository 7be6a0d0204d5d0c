/// How a queue goes on after an entry: MPD's `repeat`, `single` and `consume`, which the
/// library's queue shares so the words mean the same in every front end. Random play is no
/// option here: it is only another play order, which the queue's owner keeps and hands to
/// `QueueCursor`.
public struct QueueOptions: Sendable, Hashable {
    /// Whether the queue stops after the entry that is playing.
    public enum Single: Sendable, Hashable {
        /// Play on through the queue.
        case off
        /// Stop after every entry (with `repeat`: play the same entry again).
        case on
        /// Stop after the current entry once; the option is then spent and turns itself off.
        case oneshot
    }

    /// After the last entry the queue starts again from its first, so it never ends while it
    /// holds an entry (unless `consume` empties it).
    public var `repeat`: Bool
    public var single: Single
    /// An entry leaves the queue once it has played or been moved past.
    public var consume: Bool

    public init(repeat: Bool = false, single: Single = .off, consume: Bool = false) {
        self.repeat = `repeat`
        self.single = single
        self.consume = consume
    }
}
