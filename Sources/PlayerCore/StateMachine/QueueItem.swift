import Foundation

/// One entry of what the player will play, with how it hands over to the entry after it.
public struct QueueItem: Sendable, Hashable, Codable {
    public let track: Track
    /// The crossfade into the next item; nil uses the machine's default.
    public let crossfadeIntoNext: CrossfadeSpec?
    /// Where the item starts when the player reaches it (a partly played episode further down a
    /// listener's queue); ignored for live streams. The first item of a request starts at the
    /// request's own `startPosition`.
    public let startPosition: TimeInterval
    /// Guidance (a voice): a session's bed ducks while it sounds.
    public let isVoice: Bool

    public init(track: Track, crossfadeIntoNext: CrossfadeSpec? = nil, startPosition: TimeInterval = 0, isVoice: Bool = false) {
        self.track = track
        self.crossfadeIntoNext = crossfadeIntoNext
        self.startPosition = startPosition.isFinite ? max(0, startPosition) : 0
        self.isVoice = isVoice
    }

    private enum CodingKeys: String, CodingKey { case track, crossfadeIntoNext, startPosition, isVoice }

    /// Items written before `startPosition` existed start at 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            track: try container.decode(Track.self, forKey: .track),
            crossfadeIntoNext: try container.decodeIfPresent(CrossfadeSpec.self, forKey: .crossfadeIntoNext),
            startPosition: try container.decodeIfPresent(TimeInterval.self, forKey: .startPosition) ?? 0,
            isVoice: try container.decodeIfPresent(Bool.self, forKey: .isVoice) ?? false)
    }

    /// Where a load of this item begins: its start position, or 0 for a live stream.
    var loadStart: TimeInterval { track.isLive ? 0 : startPosition }
}
