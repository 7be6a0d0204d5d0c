import Foundation

/// What plays through a whole session beside its stages, resolved and checked: an ambient bed and
/// bells. The state machine decides with it (which bell is next, when the bed ducks); the engine
/// renders it on the session's clock.
public struct LayerPlan: Sendable, Hashable, Codable {
    /// An ambient bed: looped, faded in and out, ducked under voice stages.
    public struct Bed: Sendable, Hashable, Codable {
        /// A file, or a built-in noise (`tonearm:brown`).
        public let url: URL
        /// Gain 0...1 at full level.
        public let level: Float
        public let fadeIn: TimeInterval
        public let fadeOut: TimeInterval
        /// The overlap between repeats of a file that is shorter than the session.
        public let loopCrossfade: CrossfadeSpec
        /// How far the bed goes down under a voice stage (dB, <= 0).
        public let duckDecibels: Double
        /// How long the duck takes to reach its depth, and to come back.
        public let attack: TimeInterval
        public let release: TimeInterval

        public init(
            url: URL, level: Float = 0.6, fadeIn: TimeInterval = 5, fadeOut: TimeInterval = 8, loopCrossfade: CrossfadeSpec = CrossfadeSpec(duration: 2),
            duckDecibels: Double = -12, attack: TimeInterval = 0.5, release: TimeInterval = 2
        ) {
            self.url = url
            self.level = min(1, max(0, level))
            self.fadeIn = max(0, fadeIn)
            self.fadeOut = max(0, fadeOut)
            self.loopCrossfade = loopCrossfade
            self.duckDecibels = min(0, duckDecibels)
            self.attack = max(0.05, attack)
            self.release = max(0.05, release)
        }

        /// The bed's gain while ducked, as a factor of its level.
        public var duckGain: Float { Float(pow(10, duckDecibels / 20)) }
    }

    /// Bells on the session's clock.
    public struct Bells: Sendable, Hashable, Codable {
        /// A file, or the built-in bowl (`tonearm:bowl`).
        public let url: URL
        /// Gain 0...1.
        public let level: Float
        /// Strikes per bell (a double strike is 2), `strikeSpacing` seconds apart.
        public let strikes: Int
        public let strikeSpacing: TimeInterval
        public let schedule: BellSchedule

        public init(url: URL, level: Float = 0.8, strikes: Int = 1, strikeSpacing: TimeInterval = 3, schedule: BellSchedule) {
            self.url = url
            self.level = min(1, max(0, level))
            self.strikes = min(5, max(1, strikes))
            self.strikeSpacing = max(0, strikeSpacing)
            self.schedule = schedule
        }

        /// Session times of a cue's strikes.
        public func strikeTimes(of cue: BellCue) -> [TimeInterval] {
            (0..<strikes).map { cue.at + Double($0) * strikeSpacing }
        }
    }

    public let bed: Bed?
    public let bells: Bells?
    /// The session's length on its clock (its stages minus their crossfades); nil when a stage's
    /// length is unknown or the session is open-ended.
    public let length: TimeInterval?

    public init(bed: Bed?, bells: Bells?, length: TimeInterval?) {
        self.bed = bed
        self.bells = bells
        self.length = length
    }
}

/// When bells ring, on the session's clock: listed times, or one every `interval`, plus a start
/// bell at 0 and an end bell at the length. Open-ended sessions have no end bell and an interval
/// schedule with no last bell, so cues are found one at a time, never listed.
public struct BellSchedule: Sendable, Hashable, Codable {
    /// Listed times, sorted, without duplicates.
    public let times: [TimeInterval]
    public let interval: TimeInterval?
    public let start: Bool
    public let end: Bool
    /// The session's length (the end bell's time); nil: open-ended or unknown.
    public let length: TimeInterval?

    public init(times: [TimeInterval] = [], interval: TimeInterval? = nil, start: Bool = true, end: Bool = true, length: TimeInterval?) {
        self.times = Array(Set(times.filter { $0.isFinite && $0 >= 0 })).sorted()
        self.interval = interval.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        self.start = start
        self.end = end
        self.length = length.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }

    /// Two times closer than this are one bell.
    static let tolerance: TimeInterval = 1e-6

    /// The first cue strictly after `time` (or at it, when `inclusive`); nil when none is left.
    public func cue(after time: TimeInterval, inclusive: Bool = false) -> BellCue? {
        let from = inclusive ? time - Self.tolerance : time + Self.tolerance
        var best: TimeInterval?
        func consider(_ t: TimeInterval) {
            guard t >= from else { return }
            if let length, t > length + Self.tolerance { return }
            if best == nil || t < best! { best = t }
        }
        if start { consider(0) }
        if end, let length { consider(length) }
        if let i = times.firstIndex(where: { $0 >= from }) { consider(times[i]) }
        if let interval {
            let k = max(1, (from / interval).rounded(.up))
            consider(k * interval)
        }
        guard let at = best else { return nil }
        return BellCue(at: at, kind: kind(of: at))
    }

    private func kind(of t: TimeInterval) -> BellCue.Kind {
        if end, let length, abs(t - length) <= Self.tolerance { return .end }
        if start, t <= Self.tolerance { return .start }
        return .interval
    }
}

/// One bell of the schedule: when, on the session's clock, and which.
public struct BellCue: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case start, interval, end
    }

    public let at: TimeInterval
    public let kind: Kind

    public init(at: TimeInterval, kind: Kind) {
        self.at = at
        self.kind = kind
    }
}
