import Foundation

/// A request to play: a non-empty list of items and where to start in the first one.
public struct PlayRequest: Sendable, Hashable, Codable {
    public let items: [QueueItem]
    /// Seconds into the first item (a saved episode position); ignored for live streams.
    public let startPosition: TimeInterval
    /// What plays through the whole request beside its items (a session's bed and bells).
    public let layers: LayerPlan?

    /// Nil when `items` is empty: there is nothing to play.
    public init?(items: [QueueItem], startPosition: TimeInterval = 0, layers: LayerPlan? = nil) {
        guard !items.isEmpty else { return nil }
        self.items = items
        self.startPosition = max(0, startPosition.isFinite ? startPosition : 0)
        self.layers = layers
    }

    /// One track.
    public init(track: Track, startPosition: TimeInterval = 0) {
        self.items = [QueueItem(track: track)]
        self.startPosition = max(0, startPosition.isFinite ? startPosition : 0)
        self.layers = nil
    }
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
