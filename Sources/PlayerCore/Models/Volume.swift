import Foundation

/// The listener's volume: a software gain on the whole mix, 0-150 % in steps of 1 %, on top of
/// each item's own volume (a session stage's). Linear in amplitude, so 50 % is -6 dB and the
/// number means what a meter shows; above 100 % it boosts, and a peak past full scale is clipped
/// by the output.
public struct Volume: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// 0 (silent) to 1.5 (150 %).
    public let level: Double

    public static let range: ClosedRange<Double> = 0...1.5
    public static let full = Volume(1)
    /// What one press of a volume key changes: 5 %.
    public static let step = 0.05

    /// `level` clamped to `range` and rounded to whole percent (a value that is not a number is 100 %).
    public init(_ level: Double) {
        let finite = level.isFinite ? level : 1
        self.level = (min(Self.range.upperBound, max(Self.range.lowerBound, finite)) * 100).rounded() / 100
    }

    public var percent: Int { Int((level * 100).rounded()) }

    /// The gain in decibels (-infinity when silent).
    public var decibels: Double { 20 * log10(level) }

    public var description: String { "\(percent)%" }

    public static func < (lhs: Volume, rhs: Volume) -> Bool { lhs.level < rhs.level }

    /// A volume as a listener writes it: `0.5`, `50%` or `50 %`; nil for anything else or out of range.
    public static func parse(_ text: String) -> Volume? {
        guard let number = ListenerNumber.parse(text, suffixes: ["%": 0.01]), !number.isChange, range.contains(number.value) else { return nil }
        return Volume(number.value)
    }
}

/// A volume request: an absolute level, or a change from the current one.
public enum VolumeChange: Sendable, Hashable {
    case to(Volume)
    /// Plus or minus this much of full volume (0.05 = 5 points).
    case by(Double)

    /// The volume this change makes of `current`.
    public func applied(to current: Volume) -> Volume {
        switch self {
        case .to(let volume): volume
        case .by(let delta): Volume(current.level + (delta.isFinite ? delta : 0))
        }
    }

    /// `0.5`, `50%`, `+5%`, `-5%`, `+0.05`: a leading sign makes it relative. Nil for anything
    /// else, and for an absolute level out of `Volume.range`.
    public static func parse(_ text: String) -> VolumeChange? {
        guard let number = ListenerNumber.parse(text, suffixes: ["%": 0.01]) else { return nil }
        guard number.isChange else { return Volume.parse(text).map(VolumeChange.to) }
        return abs(number.value) <= Volume.range.upperBound ? .by(number.value) : nil
    }
}
