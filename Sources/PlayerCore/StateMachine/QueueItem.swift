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
