import Foundation
import Media
import PlayerCore

/// Endless stereo noise of one colour, the same for the same seed wherever it is read from.
///
/// The white noise is cut into blocks of `blockFrames`; each block draws from a `SeededRandom`
/// seeded from the channel's seed and the block's index, so any frame's white sample can be found
/// without generating what comes before it. A seek restarts the filters a second before the
/// target and runs them up to it: they forget their past within milliseconds (`NoiseShaper`), so
/// the frames after a seek are the frames playing from the start would have given there, up to
/// float rounding. The start itself is reached the same way, from a second before frame 0, so the
/// first frame is already steady noise, with no build-up.
///
/// Left and right draw from different seeds: uncorrelated channels, a bed as wide as the room.
struct NoiseGenerator {
    let colour: NoiseColour
    /// Frames of white noise drawn from one generator.
    static let blockFrames = 4_096
    /// How far before a target the filters start: 50 time constants of the slowest pole.
    static let warmUpFrames = AudioFormat.sampleRate

    private var left: Channel
    private var right: Channel
    /// The frame the next `render` writes first.
    private(set) var position: Int64 = 0

    /// One channel: its white noise, block by block, and its filters.
    private struct Channel {
        let seed: UInt64
        var shaper: NoiseShaper
        var white = SeededRandom(seed: 0)

        init(seed: UInt64, colour: NoiseColour) {
            self.seed = seed
            shaper = NoiseShaper(colour: colour)
        }

        /// Starts drawing block `index` (negative blocks lie before the start).
        mutating func enter(block index: Int64) {
            // One SplitMix64 step scrambles seed + index into an unrelated seed per block, so
            // neighbouring blocks are not shifted copies of one stream.
            var scrambler = SeededRandom(seed: seed &+ UInt64(bitPattern: index))
            white = SeededRandom(seed: scrambler.next())
        }

        /// The next white sample, uniform in [-1, 1).
        mutating func nextWhite() -> Double { Self.uniform(white.next()) }

        /// 53 random bits as a double uniform in [-1, 1).
        static func uniform(_ bits: UInt64) -> Double { Double(bits >> 11) * 0x1p-52 - 1 }

        /// Writes `count` samples to every other float from `buffer` (one channel of stereo).
        mutating func render(into buffer: UnsafeMutablePointer<Float>, count: Int) {
            var shaper = self.shaper
            var white = self.white
            for i in 0..<count {
                buffer[2 * i] = Float(shaper.shape(Self.uniform(white.next())))
            }
            self.shaper = shaper
            self.white = white
        }
    }

    init(colour: NoiseColour, seed: UInt64) {
        self.colour = colour
        var seeds = SeededRandom(seed: seed)
        left = Channel(seed: seeds.next(), colour: colour)
        right = Channel(seed: seeds.next(), colour: colour)
        seek(toFrame: 0)
    }

    /// Positions the generator so the next frame is frame `target` of this noise.
    mutating func seek(toFrame target: Int64) {
        let start = Self.floorDiv(target - Int64(Self.warmUpFrames), Int64(Self.blockFrames)) * Int64(Self.blockFrames)
        left.shaper.reset()
        right.shaper.reset()
        position = start
        enterBlock()
        while position < target {
            _ = left.shaper.shape(left.nextWhite())
            _ = right.shaper.shape(right.nextWhite())
            advance()
        }
    }

    /// Writes `frames` interleaved stereo frames into `buffer`, a block's run at a time (each
    /// channel's loop keeps its filter and generator in registers; the block check is per run,
    /// not per frame).
    mutating func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        let block = Int64(Self.blockFrames)
        var done = 0
        while done < frames {
            let intoBlock = position - Self.floorDiv(position, block) * block
            let n = min(frames - done, Int(block - intoBlock))
            left.render(into: buffer + 2 * done, count: n)
            right.render(into: buffer + 2 * done + 1, count: n)
            done += n
            advance(by: n)
        }
    }

    /// One frame on; a new block starts its own generators.
    private mutating func advance() { advance(by: 1) }

    /// `frames` on, never past the end of the current block.
    private mutating func advance(by frames: Int) {
        position += Int64(frames)
        if position % Int64(Self.blockFrames) == 0 { enterBlock() }
    }

    private mutating func enterBlock() {
        let index = Self.floorDiv(position, Int64(Self.blockFrames))
        left.enter(block: index)
        right.enter(block: index)
    }

    /// Division rounding towards minus infinity (the blocks before the start have negative indices).
    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
