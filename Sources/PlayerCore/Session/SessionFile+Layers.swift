import Foundation

extension SessionFile {
    /// An ambient bed under the whole session (rain, a drone): it fades in at the start, loops,
    /// ducks under stages marked `voice`, and fades out at the end instead of stopping.
    ///
    /// `source`: a built-in noise (`brown`, `pink`) or a file (relative to the session file, or
    /// absolute); `level` 0-1 (default 0.6: beds that shipped at full level were found too loud);
    /// `fadeIn` and `fadeOut` seconds (0-60, defaults 5 and 8); `loopCrossfade` seconds between
    /// repeats of a file (0-30, default 2); `duck` dB under voice stages (-40...0, default -12);
    /// `attack` and `release` seconds of the duck (0.05-10, defaults 0.5 and 2).
    public struct Bed: Sendable, Hashable, Codable {
        public var source: String
        public var level: Float?
        public var fadeIn: Double?
        public var fadeOut: Double?
        public var loopCrossfade: Double?
        public var duck: Double?
        public var attack: Double?
        public var release: Double?

        public init(
            source: String, level: Float? = nil, fadeIn: Double? = nil, fadeOut: Double? = nil, loopCrossfade: Double? = nil,
            duck: Double? = nil, attack: Double? = nil, release: Double? = nil
        ) {
            self.source = source
            self.level = level
            self.fadeIn = fadeIn
            self.fadeOut = fadeOut
            self.loopCrossfade = loopCrossfade
            self.duck = duck
            self.attack = attack
            self.release = release
        }
    }

    /// Bells at chosen moments of the session, on the session's clock (which stops while paused).
    ///
    /// `sound`: `bowl` (built in, default) or a file; `level` 0-1 (default 0.8); either `at`
    /// (seconds from the session start, such as `[0, 1500, 1800, 3300]` for sitting and walking
    /// periods) or `interval` (seconds: a bell every so often); `start` and `end` (default true)
    /// add a bell at 0 and at the session's length; `strikes` 1-5 per bell (default 1), struck
    /// `strikeSpacing` seconds apart (1-10, default 3).
    public struct Bells: Sendable, Hashable, Codable {
        public var sound: String?
        public var level: Float?
        public var at: [Double]?
        public var interval: Double?
        public var start: Bool?
        public var end: Bool?
        public var strikes: Int?
        public var strikeSpacing: Double?

        public init(
            sound: String? = nil, level: Float? = nil, at: [Double]? = nil, interval: Double? = nil, start: Bool? = nil,
            end: Bool? = nil, strikes: Int? = nil, strikeSpacing: Double? = nil
        ) {
            self.sound = sound
            self.level = level
            self.at = at
            self.interval = interval
            self.start = start
            self.end = end
            self.strikes = strikes
            self.strikeSpacing = strikeSpacing
        }
    }

    /// Most bell times one session may list (a bound against malicious files).
    public static let maximumBellTimes = 1_000
    /// The shortest interval between bells.
    public static let minimumBellInterval: Double = 1
    /// The longest a session's clock may reach for a bell time (24 h).
    public static let maximumBellTime: Double = 86_400

    func validateLayers() throws(PlaybackError) {
        func bad(_ why: String) -> PlaybackError { PlaybackError(.malformedData, underlying: "session file: \(why)") }
        func check(_ value: Double?, _ name: String, _ range: ClosedRange<Double>) throws(PlaybackError) {
            guard let value else { return }
            guard value.isFinite, range.contains(value) else {
                throw bad("\(name) must be \(range.lowerBound.formatted())...\(range.upperBound.formatted())")
            }
        }
        if let bed {
            if bed.source.trimmingCharacters(in: .whitespaces).isEmpty { throw bad("bed has no source") }
            if let v = bed.level, !(0...1).contains(v) { throw bad("bed level must be 0...1") }
            try check(bed.fadeIn, "bed fadeIn", 0...60)
            try check(bed.fadeOut, "bed fadeOut", 0...60)
            try check(bed.loopCrossfade, "bed loopCrossfade", 0...CrossfadeSpec.maximumDuration)
            try check(bed.duck, "bed duck", -40...0)
            try check(bed.attack, "bed attack", 0.05...10)
            try check(bed.release, "bed release", 0.05...10)
        }
        if let bells {
            if let s = bells.sound, s.trimmingCharacters(in: .whitespaces).isEmpty { throw bad("bells sound is empty") }
            if let v = bells.level, !(0...1).contains(v) { throw bad("bells level must be 0...1") }
            if bells.at != nil && bells.interval != nil { throw bad("bells: give at or interval, not both") }
            if let times = bells.at {
                if times.count > Self.maximumBellTimes { throw bad("more than \(Self.maximumBellTimes) bell times") }
                for t in times { try check(t, "a bell time", 0...Self.maximumBellTime) }
            }
            try check(bells.interval, "bells interval", Self.minimumBellInterval...Self.maximumBellTime)
            if let n = bells.strikes, !(1...5).contains(n) { throw bad("bells strikes must be 1...5") }
            try check(bells.strikeSpacing, "bells strikeSpacing", 1...10)
        }
    }
}
