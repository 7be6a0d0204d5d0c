/// A point on the player's own monotonic timeline, in seconds since its injected clock started.
///
/// The pure state machine never reads a clock: events that need "now" carry a `PlayerTime`, and
/// countdowns ("Reconnecting in 3 s") subtract two of them. Tests choose every instant.
public struct PlayerTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var seconds: Double

    public init(seconds: Double) { self.seconds = seconds }

    public static let zero = PlayerTime(seconds: 0)

    public static func < (lhs: PlayerTime, rhs: PlayerTime) -> Bool { lhs.seconds < rhs.seconds }

    public static func + (lhs: PlayerTime, rhs: Double) -> PlayerTime { PlayerTime(seconds: lhs.seconds + rhs) }

    /// Seconds from `other` to `self` (negative when `self` is earlier).
    public func since(_ other: PlayerTime) -> Double { seconds - other.seconds }

    public var description: String { "t=\(seconds)s" }
}
