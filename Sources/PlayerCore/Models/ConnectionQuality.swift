import Foundation

/// How a live stream's connection is doing, for a small indicator a listener can trust: the
/// bitrate, how much audio is buffered ahead, and how often the last hour it dropped or ran dry,
/// with a rating drawn from them. `reconnecting` is true while a dropped stream is asked for again
/// in the background and its buffer still plays: the state is `playing`, which is true, and this
/// says what else is going on.
public struct ConnectionQuality: Sendable, Equatable {
    public enum Rating: String, Sendable, CaseIterable {
        case good, fair, poor
    }

    /// Kilobits per second, as the stream's frames (or its server) state it; nil until known.
    public var bitrate: Int?
    /// Seconds of audio received and not yet heard; nil until known.
    public var bufferedSeconds: Double?
    /// Reconnects (heard or not) and stalls (the buffer ran dry, or no bytes came for the stall
    /// timeout) of the current stream in the last hour.
    public var reconnectsLastHour: Int
    public var stallsLastHour: Int
    /// A dropped stream is being reconnected while its buffer plays.
    public var reconnecting: Bool

    public init(bitrate: Int? = nil, bufferedSeconds: Double? = nil, reconnectsLastHour: Int = 0, stallsLastHour: Int = 0, reconnecting: Bool = false) {
        self.bitrate = bitrate
        self.bufferedSeconds = bufferedSeconds
        self.reconnectsLastHour = reconnectsLastHour
        self.stallsLastHour = stallsLastHour
        self.reconnecting = reconnecting
    }

    /// Less than this much buffered is one hiccup away from a gap.
    public static let lowBufferSeconds = 1.0
    /// Incidents in an hour from which a connection is poor rather than fair.
    public static let poorIncidents = 3

    /// Good: nothing went wrong in the last hour and the buffer holds. Fair: one or two incidents,
    /// a reconnect under way, or a thin buffer. Poor: three or more incidents in the hour.
    public var rating: Rating {
        let incidents = reconnectsLastHour + stallsLastHour
        if incidents >= Self.poorIncidents { return .poor }
        if incidents > 0 || reconnecting { return .fair }
        if let bufferedSeconds, bufferedSeconds < Self.lowBufferSeconds { return .fair }
        return .good
    }
}

/// The incidents of the streams played, with which stream and when: what `ConnectionQuality`
/// counts for the current one over its last hour. Bounded: older entries go as new ones come.
public struct ConnectionIncidents: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case reconnect, stall
    }

    /// The window the counts cover.
    public static let window: TimeInterval = 3_600
    /// Entries kept at most (far more than an hour of a stream that still plays can have).
    public static let capacity = 256

    private var entries: [(kind: Kind, track: Track.ID, at: PlayerTime)] = []

    public init() {}

    public mutating func record(_ kind: Kind, of track: Track.ID, at time: PlayerTime) {
        entries.removeAll { time.since($0.at) > Self.window }
        entries.append((kind, track, time))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }

    /// How many of `kind` happened to `track` in the `window` seconds (at most an hour) before `now`.
    public func count(_ kind: Kind, of track: Track.ID, at now: PlayerTime, within window: TimeInterval = Self.window) -> Int {
        let span = min(window, Self.window)
        return entries.reduce(0) { $0 + ($1.kind == kind && $1.track == track && now.since($1.at) <= span ? 1 : 0) }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.entries.count == rhs.entries.count && zip(lhs.entries, rhs.entries).allSatisfy { $0.kind == $1.kind && $0.track == $1.track && $0.at == $1.at }
    }
}
