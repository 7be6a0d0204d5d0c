import Foundation

/// Whether and how tracks are brought to one loudness.
public enum LoudnessMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every track as it was mastered.
    case off
    /// Each track to the target on its own.
    case track
    /// A session as a whole to the target, so its stages keep their loudness relative to each
    /// other (album gain); anything else as `track`.
    case session

    /// `off`, `track` or `session`, in any case; nil for anything else.
    public static func parse(_ text: String) -> LoudnessMode? {
        LoudnessMode(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// The next mode, for a key that cycles through them.
    public var next: LoudnessMode {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// The levelling decision: the mode and target, and the gain a track gets from them. Pure, so
/// the engine and the screens agree on every figure.
///
/// A track whose loudness is not known yet (a live stream, an episode not heard before) is
/// levelled adaptively from its short-term loudness instead (`adaptiveGain`).
public struct LoudnessLevelling: Sendable, Hashable, Codable {
    public var mode: LoudnessMode
    /// Target loudness, LUFS.
    public var target: Double

    /// -16 LUFS: what Apple and AES recommend for streamed speech and music on portable devices.
    public static let defaultTarget = -16.0
    public static let targetRange: ClosedRange<Double> = -31 ... -5
    /// The largest boost: a very quiet track is raised this far and no further (the limiter keeps
    /// its peaks under the ceiling).
    public static let maxBoost = 20.0
    /// The deepest cut.
    public static let maxCut = -30.0
    /// The ceiling the limiter keeps every output sample under, dBTP.
    public static let truePeakCeiling = -1.0

    public static let off = LoudnessLevelling(mode: .off)

    public init(mode: LoudnessMode, target: Double = LoudnessLevelling.defaultTarget) {
        self.mode = mode
        let finite = target.isFinite ? target : Self.defaultTarget
        self.target = min(Self.targetRange.upperBound, max(Self.targetRange.lowerBound, finite))
    }

    public var isOn: Bool { mode != .off }

    /// The gain for a track, dB: nil when levelling is off or when the loudness is unknown (then
    /// the adaptive levelling applies). In session mode a session's combined loudness decides.
    public func gain(track: Loudness?, session: Loudness?) -> Double? {
        switch mode {
        case .off: return nil
        case .track: return track.map(clampedGain)
        case .session: return (session ?? track).map(clampedGain)
        }
    }

    /// Gain that brings a short-term loudness to the target (for adaptive levelling), within
    /// the adaptive range; nil for near-silence, which keeps the gain where it was.
    public func adaptiveGain(shortTerm: Double) -> Double? {
        guard isOn, shortTerm.isFinite, shortTerm > Self.adaptiveGate else { return nil }
        return min(Self.adaptiveRange.upperBound, max(Self.adaptiveRange.lowerBound, target - shortTerm))
    }

    /// Adaptive levelling moves within +-12 dB: enough to bring talk and music together, not so
    /// much that a quiet passage is pumped up to the level of a loud one.
    public static let adaptiveRange: ClosedRange<Double> = -12...12
    /// Short-term loudness below this is a pause, not a level to follow.
    public static let adaptiveGate = -45.0

    private func clampedGain(_ loudness: Loudness) -> Double {
        min(Self.maxBoost, max(Self.maxCut, target - loudness.integrated))
    }

    /// "track", "session, -14 LUFS" and so on: how a log or a screen names it.
    public var description: String {
        target == Self.defaultTarget || mode == .off ? mode.rawValue : "\(mode.rawValue), \(Int(target.rounded())) LUFS"
    }

    /// Amplitude factor of a gain in dB.
    public static func amplitude(decibels: Double) -> Double { pow(10, decibels / 20) }
}

/// A levelling request: a mode (the target kept), or the next mode (a key that cycles).
public enum LoudnessChange: Sendable, Hashable {
    case to(LoudnessMode)
    case cycle

    public func applied(to current: LoudnessLevelling) -> LoudnessLevelling {
        switch self {
        case .to(let mode): LoudnessLevelling(mode: mode, target: current.target)
        case .cycle: LoudnessLevelling(mode: current.mode.next, target: current.target)
        }
    }
}
