import Foundation

/// The layers of the session that plays, as the listener sees them: how far the session is, the
/// bed's state and level, and the next bell. Part of every state the player publishes while such a
/// session plays.
public struct SessionLayersStatus: Sendable, Hashable, Codable {
    /// Seconds on the session's clock (it stops while paused, and moves with a seek).
    public var elapsed: TimeInterval
    /// The session's length; nil when open-ended (a timer counting up) or unknown.
    public var length: TimeInterval?
    /// The bed, if the session has one.
    public var bed: BedStatus?
    /// The next bell to ring, nil when none is left (or the session has no bells).
    public var nextBell: BellCue?
    /// Strikes rung so far.
    public var strikesRung: Int

    public init(elapsed: TimeInterval = 0, length: TimeInterval?, bed: BedStatus?, nextBell: BellCue?, strikesRung: Int = 0) {
        self.elapsed = elapsed
        self.length = length
        self.bed = bed
        self.nextBell = nextBell
        self.strikesRung = strikesRung
    }

    /// Seconds left until the length, nil when open-ended.
    public var remaining: TimeInterval? { length.map { max(0, $0 - elapsed) } }
}

/// What the bed is doing, and how loud it is.
public struct BedStatus: Sendable, Hashable, Codable {
    public enum Phase: String, Sendable, Hashable, Codable {
        /// Its source is opening.
        case loading
        case fadingIn
        /// At its level.
        case playing
        /// Going down under a voice stage, or down.
        case ducking, ducked
        /// Coming back up after a voice stage.
        case releasing
        /// The session is over (or stopping): the bed fades away.
        case fadingOut
        /// Silent, for good.
        case ended
    }

    public var phase: Phase
    /// Its gain now, 0...1: its level with the fade and the duck applied.
    public var level: Float

    public init(phase: Phase, level: Float) {
        self.phase = phase
        self.level = level
    }
}

/// A bell's strike, told when it sounds (or, for one a seek jumped over, that it did not).
public struct BellStrike: Sendable, Hashable, Codable {
    public let cue: BellCue
    /// 1 for the first strike of a double bell, 2 for the second.
    public let strike: Int
    /// When it sounded, on the session's clock (its time, or later if it waited for a pause or its
    /// sound to end).
    public let sessionTime: TimeInterval
    /// A forward seek jumped over it: it did not ring, and says so.
    public let skipped: Bool
    /// When it sounded on the audio clock (seconds of audio written to the output): the frame of
    /// the strike itself, not the moment it was reported. Nil for a skipped bell.
    public let audioTime: Double?

    public init(cue: BellCue, strike: Int, sessionTime: TimeInterval, skipped: Bool = false, audioTime: Double? = nil) {
        self.cue = cue
        self.strike = strike
        self.sessionTime = sessionTime
        self.skipped = skipped
        self.audioTime = audioTime
    }
}
