import Foundation
import PlayerCore
import Testing

@testable import AudioEngine

/// One deck's levelling gain: fixed from a known loudness, adaptive from the short-term loudness
/// otherwise, slowly and within its range.
/// `.blocking`: each test meters tens of seconds of audio, which must not hold the threads the
/// other suites' actors run on.
@Suite("Deck levelling", .blocking)
struct DeckLevelTests {
    private let live = Track(id: "live", url: URL(string: "http://radio.example/live")!, kind: .liveStream)
    private let file = Track(id: "file", url: URL(fileURLWithPath: "/music/a.flac"), kind: .file)

    /// Seeded white noise at `amplitude` RMS, stereo.
    private func noise(seconds: Double, rms: Float, seed: UInt64 = 7) -> [Float] {
        var state = seed
        return (0..<Int(seconds * 48_000) * 2).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Float(state >> 40) / Float(1 << 24) * 2 - 1) * rms * 3.0.squareRoot().float
        }
    }

    /// Feeds `samples` in render-sized blocks; the gain in dB after each block.
    private func feed(_ level: DeckLevel, _ samples: [Float]) -> [Double] {
        var gains: [Double] = []
        for start in stride(from: 0, to: samples.count, by: 4_096) {
            let block = Array(samples[start..<min(samples.count, start + 4_096)])
            block.withUnsafeBufferPointer { level.observe($0.baseAddress!, frames: $0.count / 2) }
            // Let the glide run as the mixer would.
            for _ in 0..<(block.count / 2) { _ = level.gain.next() }
            gains.append(20 * log10(level.gain.value))
        }
        return gains
    }

    private func shortTerm(of samples: [Float]) -> Double {
        let meter = LoudnessMeter(measure: .shortTermAndIntegrated)
        samples.withUnsafeBufferPointer { meter.add($0.baseAddress!, frames: $0.count / 2) }
        return meter.shortTerm!
    }

    @Test func aKnownLoudnessGivesItsGainFromTheFirstFrame() {
        var known = file
        known.loudness = Loudness(integrated: -22, source: .measured)
        let level = DeckLevel(levelling: LoudnessLevelling(mode: .track), track: known, startsAtBeginning: true)
        #expect(abs(20 * log10(level.gain.value) - 6) < 1e-9)
        #expect(level.isKnown)
        // Turned off, it glides back to unity.
        level.setLevelling(.off)
        #expect(level.gain.isRamping)
        for _ in 0..<MasterGain.volumeRampFrames { _ = level.gain.next() }
        #expect(level.gain.value == 1)
    }

    /// A quiet stream is raised step by step to the target, never faster than the opening step.
    @Test func aQuietLiveStreamIsRaisedSlowlyToTheTarget() throws {
        let level = DeckLevel(levelling: LoudnessLevelling(mode: .track), track: live, startsAtBeginning: true)
        let quiet = noise(seconds: 40, rms: 0.02)
        let loudness = shortTerm(of: Array(quiet.suffix(3 * 48_000 * 2)))
        let gains = feed(level, quiet)
        let expected = min(12, -16 - loudness)
        #expect(abs(gains.last! - expected) < 0.5, "after 40 s: \(gains.last!) dB, wanted \(expected)")
        // Never more than the opening step per half second (4096-frame blocks: about 12 a second).
        let perHalfSecond = stride(from: 0, to: gains.count - 6, by: 6).map { abs(gains[$0 + 6] - gains[$0]) }
        let largest = perHalfSecond.max()!
        let allowed = DeckLevel.adaptiveOpeningStep + 0.3
        #expect(largest <= allowed, "steps: \(largest)")
    }

    /// A pause in the stream (silence) leaves the gain where it was, instead of pumping it up.
    @Test func silenceKeepsTheGain() {
        let level = DeckLevel(levelling: LoudnessLevelling(mode: .track), track: live, startsAtBeginning: true)
        let settled = feed(level, noise(seconds: 40, rms: 0.05)).last!
        let afterSilence = feed(level, [Float](repeating: 0, count: 10 * 48_000 * 2)).last!
        #expect(abs(afterSilence - settled) < 0.01, "\(settled) -> \(afterSilence)")
    }

    /// What was heard from the start is measured; a seek makes it a part, not the whole.
    @Test func heardFromTheStartUntilASeek() {
        let level = DeckLevel(levelling: LoudnessLevelling(mode: .track), track: file, startsAtBeginning: true)
        let audio = noise(seconds: 5, rms: 0.05)
        _ = feed(level, audio)
        #expect(level.heardFromStart)
        let heard = level.heardIntegrated
        #expect(heard != nil)
        let reference = LoudnessMeter(measure: .integrated)
        audio.withUnsafeBufferPointer { reference.add($0.baseAddress!, frames: $0.count / 2) }
        #expect(heard == reference.integrated)
        level.seeked()
        #expect(!level.heardFromStart)
        let resumed = DeckLevel(levelling: LoudnessLevelling(mode: .track), track: file, startsAtBeginning: false)
        #expect(!resumed.heardFromStart, "a resume is not the whole track")
    }
}

extension Double {
    fileprivate var float: Float { Float(self) }
}
