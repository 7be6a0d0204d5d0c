/// Which variant of an HLS master playlist to play: the highest that the connection has shown it
/// carries, one step down whenever the player's audio ran out.
///
/// Pure: the source tells it what each segment's download showed and when the player underran,
/// and asks after every segment. Audio variants are small (tens to hundreds of kbit/s), so
/// the first choice is the highest, and the downloads say within a segment or two whether that
/// holds; a player that started low would make every listener on a good line hear the worst
/// rendition first.
package struct HLSVariantChoice: Sendable, Equatable {
    /// A variant is sustained when the measured throughput is at least this many times its
    /// bandwidth: a download must be quicker than real time with room to spare, or the buffer
    /// shrinks with every segment.
    package static let headroom = 1.5
    /// Weight of the newest download in the throughput estimate: quick to notice a slower line,
    /// steady against one slow segment.
    package static let newestWeight = 0.5
    /// Choices after a step down during which the variant does not go up again: a line that
    /// failed a variant a moment ago does not get the same chance at once (and a throughput
    /// measured on a smaller variant's downloads does not flip the choice back and forth).
    package static let holdAfterStepDown = 10

    /// The variants, lowest bandwidth first (a variant that states none counts as 0).
    package let variants: [HLSVariant]
    /// The variant now played.
    package private(set) var current: HLSVariant
    /// Bits per second the downloads have shown, smoothed; nil before the first.
    package private(set) var throughput: Double?
    /// The player underran since the last choice.
    private var starved = false
    /// Choices left before the variant may go up again.
    private var holdingDown = 0

    package init(variants: [HLSVariant]) {
        precondition(!variants.isEmpty, "a master playlist has at least one variant")
        self.variants = variants.sorted { ($0.bandwidth ?? 0) < ($1.bandwidth ?? 0) }
        current = self.variants[self.variants.count - 1]
    }

    /// A segment of `bytes` took `seconds` to download.
    package mutating func downloaded(bytes: Int, seconds: Double) {
        guard bytes > 0, seconds.isFinite, seconds > 0 else { return }
        let measured = Double(bytes) * 8 / seconds
        throughput = throughput.map { $0 * (1 - Self.newestWeight) + measured * Self.newestWeight } ?? measured
    }

    /// The player's audio ran out while it played: the variant is not being sustained.
    package mutating func underran() {
        starved = true
    }

    /// The variant to play from the next segment on (the current one when nothing changes):
    /// after an underrun one step below the current one, otherwise the highest the throughput
    /// sustains, but never more than one step up at a time.
    package mutating func next() -> HLSVariant {
        guard let position = variants.firstIndex(of: current) else { return current }
        var target = position
        if let throughput {
            target = variants.lastIndex { Double($0.bandwidth ?? 0) * Self.headroom <= throughput } ?? 0
            target = min(target, holdingDown > 0 ? position : position + 1)
        }
        holdingDown = max(0, holdingDown - 1)
        if starved {
            target = min(target, max(0, position - 1))
            starved = false
        }
        if target < position { holdingDown = Self.holdAfterStepDown }
        current = variants[target]
        return current
    }
}
