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
    /// The item has not answered for days (a usually unreachable station, as learned retries
    /// judge it): a failure of its first connection ends at once, recoverable, instead of after
    /// the whole reconnect backoff. Once it has played, a drop reconnects as for any item.
    public let triesOnce: Bool

    public init(
        track: Track, crossfadeIntoNext: CrossfadeSpec? = nil, startPosition: TimeInterval = 0, isVoice: Bool = false,
        triesOnce: Bool = false
    ) {
        self.track = track
        self.crossfadeIntoNext = crossfadeIntoNext
        self.startPosition = startPosition.isFinite ? max(0, startPosition) : 0
        self.isVoice = isVoice
        self.triesOnce = triesOnce
    }

    /// The same entry with another track (a recording's title added), everything else kept.
    func replacingTrack(_ track: Track) -> QueueItem {
        QueueItem(
            track: track, crossfadeIntoNext: crossfadeIntoNext, startPosition: startPosition, isVoice: isVoice, triesOnce: triesOnce)
    }

    private enum CodingKeys: String, CodingKey { case track, crossfadeIntoNext, startPosition, isVoice, triesOnce }

    /// Items written before `startPosition` existed start at 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            track: try container.decode(Track.self, forKey: .track),
            crossfadeIntoNext: try container.decodeIfPresent(CrossfadeSpec.self, forKey: .crossfadeIntoNext),
            startPosition: try container.decodeIfPresent(TimeInterval.self, forKey: .startPosition) ?? 0,
            isVoice: try container.decodeIfPresent(Bool.self, forKey: .isVoice) ?? false,
            triesOnce: try container.decodeIfPresent(Bool.self, forKey: .triesOnce) ?? false)
    }

    /// Where a load of this item begins: its start position, or 0 for a live stream.
    var loadStart: TimeInterval { track.isLive ? 0 : startPosition }
}
