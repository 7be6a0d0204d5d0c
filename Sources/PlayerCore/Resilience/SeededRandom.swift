/// A small, fast, reproducible random number generator (SplitMix64, Steele et al. 2014).
///
/// Hand-written because the standard library has no seedable generator and the pure state
/// machine must carry its randomness as a value: the same seed always gives the same jitter,
/// so a failing property test or a reconnect timeline can be replayed exactly.
public struct SeededRandom: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A seed from the system's generator, for production use.
    public static func systemSeeded() -> SeededRandom {
        var system = SystemRandomNumberGenerator()
        return SeededRandom(seed: system.next())
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
