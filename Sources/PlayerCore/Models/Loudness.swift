import Foundation

/// How loud a track is as a whole: its EBU R128 integrated loudness, and where that figure came
/// from. Measured once and kept, so levelling knows a track's gain before its first frame.
public struct Loudness: Sendable, Hashable, Codable {
    /// Where the figure came from; a measurement is trusted over a tag written by another program.
    public enum Source: String, Sendable, Hashable, Codable, CaseIterable {
        /// Tonearm measured the whole track (libebur128).
        case measured
        /// Measured from what was heard of a network episode, start to end.
        case heard
        /// A ReplayGain track gain tag (`REPLAYGAIN_TRACK_GAIN`), referenced to -18 LUFS.
        case replayGainTag
        /// An Opus R128 gain tag (`R128_TRACK_GAIN`, Q7.8 dB), referenced to -23 LUFS.
        case r128Tag
    }

    /// Integrated loudness, LUFS.
    public let integrated: Double
    public let source: Source

    /// Loudness a measurement can give: libebur128's absolute gate is -70 LUFS, and nothing digital
    /// is louder than full scale.
    public static let plausibleRange: ClosedRange<Double> = -70...0

    /// Nil for a figure that is not a number or outside `plausibleRange` (silence, a broken tag).
    public init?(integrated: Double, source: Source) {
        guard integrated.isFinite, Self.plausibleRange.contains(integrated) else { return nil }
        self.integrated = (integrated * 100).rounded() / 100
        self.source = source
    }

    /// ReplayGain 2.0 gains are relative to -18 LUFS.
    public static let replayGainReference = -18.0
    /// Opus R128 gains are relative to -23 LUFS (EBU R128's own target).
    public static let r128Reference = -23.0

    /// Which gain a tag states: a track's own, or its album's (the album heard as a whole).
    public enum TagScope: String, Sendable, CaseIterable {
        case track = "TRACK"
        case album = "ALBUM"
    }

    /// The loudness a file's tags state for `scope`, when they state one (tag names in any case):
    /// an Opus `R128_TRACK_GAIN` / `R128_ALBUM_GAIN` first (a Q7.8 integer), else
    /// `REPLAYGAIN_TRACK_GAIN` / `REPLAYGAIN_ALBUM_GAIN` ("-6.20 dB"). Tags are untrusted text:
    /// anything unreadable or implausible is ignored.
    public static func fromTags(_ tags: [String: String], scope: TagScope = .track) -> Loudness? {
        var byName: [String: String] = [:]
        for (key, value) in tags { byName[key.uppercased()] = value.trimmingCharacters(in: .whitespaces) }
        if let text = byName["R128_\(scope.rawValue)_GAIN"], text.count <= 8, let q78 = Int(text), abs(q78) <= 32_767 {
            return Loudness(integrated: r128Reference - Double(q78) / 256, source: .r128Tag)
        }
        if let text = byName["REPLAYGAIN_\(scope.rawValue)_GAIN"], text.count <= 24 {
            let number = text.lowercased().replacingOccurrences(of: "db", with: "").trimmingCharacters(in: .whitespaces)
            if let gain = Double(number), abs(gain) <= 70 {
                return Loudness(integrated: replayGainReference - gain, source: .replayGainTag)
            }
        }
        return nil
    }

    /// The loudness of several tracks heard as one (a session): their energies averaged by
    /// duration, which is what measuring them back to back would give when each is near its own
    /// integrated level. Nil when a part is unknown.
    public static func combined(_ parts: [(loudness: Loudness?, duration: Double)]) -> Loudness? {
        var energy = 0.0
        var total = 0.0
        for part in parts {
            guard let loudness = part.loudness else { return nil }
            let weight = part.duration.isFinite && part.duration > 0 ? part.duration : 1
            energy += weight * pow(10, loudness.integrated / 10)
            total += weight
        }
        guard total > 0 else { return nil }
        return Loudness(integrated: 10 * log10(energy / total), source: .measured)
    }
}
