import Foundation

/// The gain law of a crossfade or fade. Pure, so the state machine can compute the volumes of a
/// crossfade-pause snapshot and the mixer can apply exactly the same numbers.
public enum FadeCurve: String, Sendable, Hashable, Codable, CaseIterable {
    /// cos/sin law: constant power through the middle; the default, as in most DJ mixers.
    case equalPower = "equal-power"
    /// Gains move in straight lines; dips about 3 dB in the middle for uncorrelated material.
    case linear
    /// cos^2/sin^2 (raised cosine): gains sum to 1, gentle at both ends.
    case raisedCosine = "raised-cosine"
    /// Gain moves linearly in decibels over `logarithmicRangeDB`, reaching silence exactly at the end.
    case logarithmic = "log"

    /// The decibel span of the logarithmic curve.
    public static let logarithmicRangeDB = 60.0

    /// Gains of the outgoing and incoming decks at `progress` (clamped to 0...1).
    public func gains(at progress: Double) -> (outgoing: Double, incoming: Double) {
        let p = min(1, max(0, progress.isFinite ? progress : 0))
        switch self {
        case .equalPower:
            return (cos(p * .pi / 2), sin(p * .pi / 2))
        case .linear:
            return (1 - p, p)
        case .raisedCosine:
            let c = cos(p * .pi / 2)
            let s = sin(p * .pi / 2)
            return (c * c, s * s)
        case .logarithmic:
            return (Self.logGain(1 - p), Self.logGain(p))
        }
    }

    /// Gain of a deck fading in with dB-linear law: 0 at 0, 1 at 1.
    private static func logGain(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return pow(10, -logarithmicRangeDB * (1 - x) / 20)
    }
}

/// How the current item hands over to the next: a crossfade of `duration` seconds (0 = gapless)
/// with `curve`.
public struct CrossfadeSpec: Sendable, Hashable, Codable {
    /// The longest crossfade Tonearm accepts.
    public static let maximumDuration: TimeInterval = 30

    public let duration: TimeInterval
    public let curve: FadeCurve

    /// Clamps `duration` to 0...30 s.
    public init(duration: TimeInterval, curve: FadeCurve = .equalPower) {
        self.duration = min(Self.maximumDuration, max(0, duration.isFinite ? duration : 0))
        self.curve = curve
    }

    /// Back-to-back, no overlap.
    public static let gapless = CrossfadeSpec(duration: 0)

    /// The fade actually used between two tracks: a track shorter than twice the crossfade gets a
    /// shorter fade, so no fade ever covers more than half of either track.
    public func effectiveDuration(outgoing: TimeInterval?, incoming: TimeInterval?) -> TimeInterval {
        var d = duration
        if let outgoing { d = min(d, outgoing / 2) }
        if let incoming { d = min(d, incoming / 2) }
        return max(0, d)
    }
}
