import Foundation

/// What plays after the current item, as a queue editor (an MPD client) wants it now: the
/// current item plays on untouched, and these follow it in order.
public struct UpcomingChange: Sendable, Hashable, Codable {
    /// The items after the current one, in order; empty makes the current item the last.
    public let items: [QueueItem]
    /// The crossfade from the current item into the first of `items`, replacing the current
    /// item's own; nil uses the configuration's default.
    public let crossfadeFromCurrent: CrossfadeSpec?

    public init(items: [QueueItem], crossfadeFromCurrent: CrossfadeSpec? = nil) {
        self.items = items
        self.crossfadeFromCurrent = crossfadeFromCurrent
    }
}
