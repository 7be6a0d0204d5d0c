import Foundation

/// Sounds Tonearm makes itself, so a session, a timer or an alarm needs no recording of unclear
/// licence: a singing bowl for bells, shaped noise for an ambient bed, silence for a timer's
/// stage, and a tone an alarm falls back to when its source stays silent.
///
/// They are addressed as `tonearm:NAME` (`tonearm:bowl`), a scheme that never touches the disk or
/// the network; a session names them by their bare name (`"source": "brown"`), and any file can
/// take their place.
public enum BuiltInSound: String, Sendable, Hashable, Codable, CaseIterable {
    /// A struck singing bowl: inharmonic partials, each with its own exponential decay.
    case bowl
    /// Brown (red) noise: power falling 6 dB per octave, a deep rumble like distant surf.
    case brown
    /// Pink noise: power falling 3 dB per octave, even across octaves like steady rain.
    case pink
    /// Digital silence, as long as asked: the stage of a timer without guidance.
    case silence
    /// A plain repeating two-tone chime, loud enough to wake: the alarm's local fallback.
    case alarm

    /// The URL scheme of built-in sounds.
    public static let scheme = "tonearm"

    /// `tonearm:NAME`.
    public var url: URL { URL(string: "\(Self.scheme):\(rawValue)")! }

    /// The sound a `tonearm:NAME` URL names; nil for any other URL.
    public init?(url: URL) {
        guard url.scheme?.lowercased() == Self.scheme else { return nil }
        let name = url.absoluteString.dropFirst(Self.scheme.count + 1)
        guard let sound = BuiltInSound(rawValue: String(name).lowercased()) else { return nil }
        self = sound
    }

    /// Whether the sound ends by itself (a bell rings out; noise and silence go on until cut).
    public var isFinite: Bool { self == .bowl }
}
