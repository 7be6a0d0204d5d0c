import Foundation

/// One entry of what the player will play, with how it hands over to the entry after it.
public struct QueueItem: Sendable, Hashable, Codable {
    public let track: Track
    /// The crossfade into the next item; nil uses the machine's default.
    public let crossfadeIntoNext: CrossfadeSpec?

    public init(track: Track, crossfadeIntoNext: CrossfadeSpec? = nil) {
        self.track = track
        self.crossfadeIntoNext = crossfadeIntoNext
    }
}

/// A request to play: a non-empty list of items and where to start in the first one.
public struct PlayRequest: Sendable, Hashable, Codable {
    public let items: [QueueItem]
    /// Seconds into the first item (a saved episode position); ignored for live streams.
    public let startPosition: TimeInterval

    /// Nil when `items` is empty: there is nothing to play.
    public init?(items: [QueueItem], startPosition: TimeInterval = 0) {
        guard !items.isEmpty else { return nil }
        self.items = items
        self.startPosition = max(0, startPosition.isFinite ? startPosition : 0)
    }

    /// One track.
    public init(track: Track, startPosition: TimeInterval = 0) {
        self.items = [QueueItem(track: track)]
        self.startPosition = max(0, startPosition.isFinite ? startPosition : 0)
    }
}

/// Identifies one `load` effect, so a late answer about an abandoned load is recognised and ignored.
public struct LoadID: Sendable, Hashable, Codable, CustomStringConvertible {
    public let value: UInt64
    public init(_ value: UInt64) { self.value = value }
    public var description: String { "load#\(value)" }
}

extension PlayRequest {
    /// How long the whole request plays: its items minus their crossfade overlaps; nil when an
    /// item's duration is unknown.
    public func playLength(configuration: PlayerStateMachine.Configuration) -> Double? {
        var total = 0.0
        for (i, item) in items.enumerated() {
            guard let d = item.track.duration else { return nil }
            total += d
            if i + 1 < items.count {
                let spec = item.crossfadeIntoNext ?? configuration.defaultCrossfade
                total -= spec.effectiveDuration(outgoing: d, incoming: items[i + 1].track.duration)
            }
        }
        return total
    }
}
