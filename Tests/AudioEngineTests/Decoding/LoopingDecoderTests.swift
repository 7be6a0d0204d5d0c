import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// A looped track's frames, decoded by FFmpeg from a real file whose samples number themselves:
/// repeats butt together without a lost or repeated frame, an overlap is the fade curve's mix of
/// tail and head, a fixed length is cut at exactly its frame count.
@Suite("Looped track decoding", .blocking)
struct LoopingDecoderTests {
    /// 0.5 s: not a multiple of any decode chunk, so seams fall inside chunks.
    static let sourceFrames = 24_000

    static func source(_ fixtures: AudioFixtures, marker: Int16 = 0) throws -> URL {
        try fixtures.write("count-\(marker).wav", CountingWAV.data(frames: sourceFrames, marker: marker))
    }

    static func decoder(_ url: URL, _ loop: SourceLoop) throws -> LoopingDecoder {
        LoopingDecoder(source: try FFmpegDecoder(url: url), loop: loop)
    }

    /// Every frame the decoder gives, in odd-sized reads.
    static func readAll(_ decoder: LoopingDecoder) throws -> [Float] {
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: 3_001 * 2)
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { b throws(PlaybackError) in
                try decoder.read(into: b.baseAddress!, maxFrames: 3_001)
            }
            if n == 0 { break }
            out += buffer[0..<(n * 2)]
        }
        return out
    }

    static func left(_ samples: [Float]) -> [Float] { stride(from: 0, to: samples.count, by: 2).map { samples[$0] } }

    @Test func gaplessRepeatsFollowEachOtherFrameByFrame() throws {
        let fixtures = try AudioFixtures()
        let decoder = try Self.decoder(try Self.source(fixtures), SourceLoop(.repeats(3)))
        #expect(decoder.duration == 1.5)
        let numbers = Self.left(try Self.readAll(decoder)).map(CountingWAV.number)
        #expect(numbers.count == 3 * Self.sourceFrames)
        let expected = (0..<(3 * Self.sourceFrames)).map { $0 % Self.sourceFrames }
        let firstWrong = zip(numbers, expected).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(firstWrong == nil, "first wrong frame: \(String(describing: firstWrong))")
    }

    @Test(arguments: [FadeCurve.linear, .equalPower])
    func overlappedRepeatsMixTailAndHeadWithTheCurve(curve: FadeCurve) throws {
        let fixtures = try AudioFixtures()
        let loop = SourceLoop(.repeats(2), crossfade: CrossfadeSpec(duration: 0.1, curve: curve))
        let decoder = try Self.decoder(try Self.source(fixtures), loop)
        #expect(abs((decoder.duration ?? 0) - 0.9) < 1e-12)
        let overlap = 4_800
        let tailStart = Self.sourceFrames - overlap
        let left = Self.left(try Self.readAll(decoder))
        #expect(left.count == 2 * Self.sourceFrames - overlap)
        var worst = 0.0
        var worstAt = -1
        for (i, value) in left.enumerated() {
            let expected: Double
            if i < tailStart {
                expected = Double(CountingWAV.sample(i))
            } else if i < Self.sourceFrames {
                // Frame j of the overlap: the first repeat's tail fading out, the second's head in.
                let j = i - tailStart
                let g = curve.gains(at: Double(j + 1) / Double(overlap))
                expected = Double(CountingWAV.sample(tailStart + j)) * g.outgoing + Double(CountingWAV.sample(j)) * g.incoming
            } else {
                expected = Double(CountingWAV.sample(i - tailStart))
            }
            let error = abs(Double(value) - expected)
            if error > worst {
                worst = error
                worstAt = i
            }
        }
        #expect(worst < 1e-6, "worst error \(worst) at frame \(worstAt)")
    }

    @Test func fixedLengthEndsAtExactlyItsFrameCount() throws {
        let fixtures = try AudioFixtures()
        let url = try Self.source(fixtures)
        // 1.3 s of a 0.5 s source: two whole repeats and 0.3 s of a third.
        let gapless = try Self.decoder(url, SourceLoop(.seconds(1.3)))
        #expect(gapless.duration == 1.3)
        let numbers = Self.left(try Self.readAll(gapless)).map(CountingWAV.number)
        #expect(numbers.count == 62_400)
        #expect(numbers == (0..<62_400).map { $0 % Self.sourceFrames })
        // With overlaps the cut is still exact, and so is a length shorter than the source.
        let overlapped = try Self.decoder(url, SourceLoop(.seconds(1.3), crossfade: CrossfadeSpec(duration: 0.2)))
        #expect(try Self.readAll(overlapped).count == 62_400 * 2)
        let short = try Self.decoder(url, SourceLoop(.seconds(0.25)))
        #expect(Self.left(try Self.readAll(short)).map(CountingWAV.number) == Array(0..<12_000))
    }

    @Test func aSeekLandsInTheRepeatThatHoldsThePosition() throws {
        let fixtures = try AudioFixtures()
        let decoder = try Self.decoder(try Self.source(fixtures), SourceLoop(.repeats(3)))
        // 0.6 s is 0.1 s into the second repeat.
        try decoder.seek(to: 0.6)
        #expect(decoder.repeatIndex == 1)
        let numbers = Self.left(try Self.readAll(decoder)).map(CountingWAV.number)
        #expect(numbers == (28_800..<72_000).map { $0 % Self.sourceFrames })
        // A fixed-length loop seeks past its cut to its end.
        let fixed = try Self.decoder(try Self.source(fixtures), SourceLoop(.seconds(1.3)))
        try fixed.seek(to: 5)
        #expect(try Self.readAll(fixed).isEmpty)
    }

    @Test func aDeckPlaysALoopedTrackAsOneWithOneClock() throws {
        let fixtures = try AudioFixtures()
        let url = try Self.source(fixtures)
        let track = Track(id: "loop", url: url, kind: .file, title: "Loop", duration: 1.5, loop: SourceLoop(.repeats(3)))
        let deck = Deck(
            node: .a, loadID: LoadID(1), track: track, decoder: try FFmpegDecoder(url: url), startAt: 0.6, lookaheadFrames: 96_000)
        defer { deck.stop() }
        #expect(deck.duration == 1.5)
        deck.start(initialSeek: 0.6)
        var buffer = [Float](repeating: 0, count: 9_600 * 2)
        func pull() -> [Int] {
            let got = buffer.withUnsafeMutableBufferPointer { deck.pull(into: $0.baseAddress!, frames: 9_600, blocking: true) }
            return Self.left(Array(buffer[0..<(got.frames * 2)])).map(CountingWAV.number)
        }
        // Started 0.1 s into the second repeat; the position counts the whole track.
        #expect(pull() == Array(4_800..<14_400))
        #expect(abs(deck.position - 0.8) < 1e-9)
        // A seek to 1.2 s lands 0.2 s into the third repeat.
        deck.seek(to: 1.2)
        #expect(pull() == Array(9_600..<19_200))
        #expect(abs(deck.position - 1.4) < 1e-9)
    }
}
