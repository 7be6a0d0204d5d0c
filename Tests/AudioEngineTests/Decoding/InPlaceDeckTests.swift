import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// A deck whose decoder only computes (Tonearm's own sounds, a loop of one without an overlap)
/// is read on the render thread as it mixes: its frames are there from the first real-time pull,
/// are the very frames the decoder makes, and end, seek and loop exactly as a threaded deck's.
@Suite("Decks read in place")
struct InPlaceDeckTests {
    static func deck(_ sound: BuiltInSound, loop: SourceLoop? = nil, startAt: Double = 0) -> Deck {
        let track = Track(id: sound.rawValue, url: sound.url, kind: .file, title: sound.rawValue, loop: loop)
        let deck = Deck(
            node: .a, loadID: LoadID(1), track: track, decoder: SynthesizedDecoder(sound: sound), startAt: startAt,
            lookaheadFrames: 48_000)
        deck.start(initialSeek: startAt > 0 ? startAt : nil)
        return deck
    }

    /// Pulls `frames` in real time (never waiting), in odd-sized blocks; the frames and whether it ended.
    static func pull(_ deck: Deck, frames: Int) -> (samples: [Float], ended: Bool) {
        var samples: [Float] = []
        var buffer = [Float](repeating: 0, count: 1_021 * 2)
        while samples.count < frames * 2 {
            let wanted = min(1_021, frames - samples.count / 2)
            let got = buffer.withUnsafeMutableBufferPointer { deck.pull(into: $0.baseAddress!, frames: wanted, blocking: false) }
            samples += buffer[0..<(got.frames * 2)]
            if got.ended { return (samples, true) }
            if got.frames == 0 { break }
        }
        return (samples, false)
    }

    /// Where two runs of samples first differ (nil: the same), so a failure names one index
    /// instead of printing a million samples.
    static func firstDifference(_ a: [Float], _ b: [Float]) -> String? {
        guard a.count == b.count else { return "\(a.count) samples, expected \(b.count)" }
        return a.indices.first { a[$0] != b[$0] }.map { "sample \($0): \(a[$0]), expected \(b[$0])" }
    }

    @Test func onlyComputedSoundsAndTheirGaplessLoopsAreReadInPlace() throws {
        for sound in BuiltInSound.allCases { #expect(SynthesizedDecoder(sound: sound).isSafeOnRenderThread, "\(sound)") }
        let gapless = LoopingDecoder(source: SynthesizedDecoder(sound: .bowl), loop: SourceLoop(.repeats(3)))
        #expect(gapless.isSafeOnRenderThread)
        let overlapped = LoopingDecoder(
            source: SynthesizedDecoder(sound: .bowl), loop: SourceLoop(.repeats(3), crossfade: CrossfadeSpec(duration: 2, curve: .equalPower)))
        #expect(!overlapped.isSafeOnRenderThread)
        let fixtures = try AudioFixtures()
        let file = try fixtures.write("count.wav", CountingWAV.data(frames: 4_800, marker: 0))
        #expect(!(try FFmpegDecoder(url: file)).isSafeOnRenderThread)
        #expect(!LoopingDecoder(source: try FFmpegDecoder(url: file), loop: SourceLoop(.repeats(2))).isSafeOnRenderThread)
    }

    @Test func theBowlComesWholeFromTheFirstRealTimePullAndEndsOnItsLastFrame() throws {
        let deck = Self.deck(.bowl)
        defer { deck.stop() }
        #expect(deck.bufferedFrames == 48_000)
        #expect(!deck.sourceEnded)
        let expected = try SynthesizedDecoder(sound: .bowl).readFrames(BowlBell.frames + 10)
        let (samples, ended) = Self.pull(deck, frames: BowlBell.frames + 10)
        #expect(ended)
        #expect(Self.firstDifference(samples, expected) == nil)
        #expect(deck.sourceEnded && deck.isDrained && deck.bufferedFrames == 0)
        #expect(deck.positionFrame == Int64(BowlBell.frames))
    }

    @Test func aSilentStageOfTwoSecondsIsExactly96000FramesThenItsEnd() {
        let deck = Self.deck(.silence, loop: SourceLoop(.seconds(2)))
        defer { deck.stop() }
        #expect(deck.duration == 2)
        let (samples, ended) = Self.pull(deck, frames: 200_000)
        #expect(ended)
        #expect(Self.firstDifference(samples, [Float](repeating: 0, count: 96_000 * 2)) == nil)
        #expect(abs(deck.position - 2) < 1e-9)
    }

    @Test func aStartPositionAndASeekLandWhereTheDecoderWouldHave() throws {
        let decoder = SynthesizedDecoder(sound: .bowl)
        try decoder.seek(to: 3)
        let fromThree = try decoder.readFrames(4_800)
        let started = Self.deck(.bowl, startAt: 3)
        defer { started.stop() }
        #expect(Self.firstDifference(Self.pull(started, frames: 4_800).samples, fromThree) == nil)
        #expect(abs(started.position - 3.1) < 1e-9)

        try decoder.seek(to: 7.5)
        let fromSevenAndAHalf = try decoder.readFrames(4_800)
        started.seek(to: 7.5)
        #expect(Self.firstDifference(Self.pull(started, frames: 4_800).samples, fromSevenAndAHalf) == nil)
        #expect(abs(started.position - 7.6) < 1e-9)
    }

    @Test func aLoopedBowlRepeatsFrameForFrameAcrossItsSeams() throws {
        let deck = Self.deck(.bowl, loop: SourceLoop(.repeats(2)))
        defer { deck.stop() }
        let one = try SynthesizedDecoder(sound: .bowl).readFrames(BowlBell.frames)
        let (samples, ended) = Self.pull(deck, frames: 3 * BowlBell.frames)
        #expect(ended)
        #expect(Self.firstDifference(samples, one + one) == nil)
    }

    @Test func noiseSoundsTheSameReadInPlaceAsDecodedAhead() throws {
        let expected = try SynthesizedDecoder(sound: .pink).readFrames(48_000)
        let deck = Self.deck(.pink)
        defer { deck.stop() }
        let (samples, ended) = Self.pull(deck, frames: 48_000)
        #expect(!ended)
        #expect(Self.firstDifference(samples, expected) == nil)
    }
}
