import Foundation

/// How fast files and episodes play, with the pitch kept: 0.5x to 3.0x in steps of 0.05. Live
/// streams always play at 1x: a live edge cannot be outrun, and slowing down would fall behind it.
/// Positions, durations and saved places stay in media time (the file's own seconds).
public struct PlaybackSpeed: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public let rate: Double

    public static let range: ClosedRange<Double> = 0.5...3.0
    public static let step = 0.05
    public static let normal = PlaybackSpeed(1)

    /// `rate` clamped to `range` and rounded to a step (a value that is not a number is 1x).
    public init(_ rate: Double) {
        let finite = rate.isFinite ? rate : 1
        let clamped = min(Self.range.upperBound, max(Self.range.lowerBound, finite))
        // Whole steps, held as hundredths so 1.15 is 1.15 and not 1.1500000000000001.
        self.rate = ((clamped / Self.step).rounded() * Self.step * 100).rounded() / 100
    }

    /// The speed `track` plays at: 1x for a live stream.
    public func rate(for track: Track?) -> Double { track?.isLive == true ? 1 : rate }

    /// "1.5×", "0.75×".
    public var description: String {
        var text = String(format: "%.2f", rate)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "×"
    }

    public static func < (lhs: PlaybackSpeed, rhs: PlaybackSpeed) -> Bool { lhs.rate < rhs.rate }

    /// `1.5`, `1.5x`, `150%`; nil for anything else or out of range.
    public static func parse(_ text: String) -> PlaybackSpeed? {
        guard let number = ListenerNumber.parse(text, suffixes: SpeedChange.suffixes), !number.isChange, range.contains(number.value) else {
            return nil
        }
        return PlaybackSpeed(number.value)
    }
}

/// A speed request: an absolute speed, or a change from the current one.
public enum SpeedChange: Sendable, Hashable {
    case to(PlaybackSpeed)
    /// Plus or minus this much (0.05 = one step).
    case by(Double)

    public func applied(to current: PlaybackSpeed) -> PlaybackSpeed {
        switch self {
        case .to(let speed): speed
        case .by(let delta): PlaybackSpeed(current.rate + (delta.isFinite ? delta : 0))
        }
    }

    /// `1.5`, `1.5x`, `150%`, `+0.25`, `-0.1`: a leading sign makes it relative.
    public static func parse(_ text: String) -> SpeedChange? {
        guard let number = ListenerNumber.parse(text, suffixes: suffixes) else { return nil }
        guard number.isChange else { return PlaybackSpeed.parse(text).map(SpeedChange.to) }
        return abs(number.value) <= PlaybackSpeed.range.upperBound ? .by(number.value) : nil
    }

    static let suffixes: [Character: Double] = ["%": 0.01, "x": 1, "×": 1]
}
