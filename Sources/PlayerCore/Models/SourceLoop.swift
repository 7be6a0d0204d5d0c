import Foundation

/// How a track repeats its source: a looped session stage is one track to everything above the
/// engine (one title, one clock, one duration), and its repeats are a detail of the deck that
/// plays it.
///
/// Why not one queue item per repeat: each item would be a track with its own clock, and the seam
/// between repeats a crossfade of the state machine, so a listener would see "Breath (1/2)",
/// "Breath (2/2)" and a zero-length crossfade where nothing changes. The seam belongs to the audio,
/// not to the player's state.
public struct SourceLoop: Sendable, Hashable, Codable {
    /// How long the looped track lasts.
    public enum Length: Sendable, Hashable, Codable {
        /// The source plays this many times (at least 1).
        case repeats(Int)
        /// The source repeats as often as needed and the track is cut at exactly this many
        /// seconds (which may fall inside a repeat, or before the first one ends).
        case seconds(TimeInterval)
    }

    public let length: Length
    /// The overlap between the end of one repeat and the start of the next (0 = back to back,
    /// sample-exact); at most half the source, as for any crossfade.
    public let crossfade: CrossfadeSpec

    public init(_ length: Length, crossfade: CrossfadeSpec = .gapless) {
        switch length {
        case .repeats(let n): self.length = .repeats(max(1, n))
        case .seconds(let s): self.length = .seconds(s.isFinite ? max(0, s) : 0)
        }
        self.crossfade = crossfade
    }

    /// The overlap actually used between repeats of a source of `source` seconds (nil: unknown).
    public func overlap(source: TimeInterval?) -> TimeInterval {
        crossfade.effectiveDuration(outgoing: source, incoming: source)
    }

    /// The track's length for a source of `source` seconds: n repeats minus the n - 1 overlaps
    /// between them, or the fixed length. Nil when it depends on an unknown source length.
    public func playLength(source: TimeInterval?) -> TimeInterval? {
        switch length {
        case .seconds(let s):
            return s
        case .repeats(let n):
            guard let source, source > 0 else { return nil }
            return Double(n) * source - Double(n - 1) * overlap(source: source)
        }
    }
}
