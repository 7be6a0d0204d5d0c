import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// How `tonearm:NAME` URLs open: through the file factory and the duration probe, the alarm's
/// chime and silence as endless decoders, and an unknown name as a typed error.
@Suite("Synthesised sounds as decoders")
struct SynthDecoderTests {
    static func track(_ url: String, loop: SourceLoop? = nil) -> Track {
        Track(id: url, url: URL(string: url)!, kind: .file, loop: loop)
    }

    @Test func theFileFactoryOpensEveryBuiltInSound() throws {
        for sound in BuiltInSound.allCases {
            let decoder = try FileDecoderFactory().makeDecoder(for: Self.track("tonearm:\(sound.rawValue)"), load: LoadCancellation())
            #expect((decoder as? SynthesizedDecoder)?.sound == sound)
            #expect(decoder.duration == (sound == .bowl ? 12 : nil))
            #expect(try decoder.readFrames(1_000).count == 2_000)
        }
        #expect(FileDecoderFactory.opens(URL(string: "tonearm:bowl")!))
        #expect(FileDecoderFactory.opens(URL(string: "tonearm:xyz")!))
        #expect(!FileDecoderFactory.opens(URL(string: "https://example.com/bowl.mp3")!))
    }

    @Test func anUnknownNameFailsAsAnUnsupportedFormatThatNamesIt() {
        do {
            _ = try FileDecoderFactory().makeDecoder(for: Self.track("tonearm:xyz"), load: LoadCancellation())
            Issue.record("tonearm:xyz opened")
        } catch {
            #expect(error.code == .unsupportedFormat)
            #expect(error.underlying?.contains("\"xyz\"") == true, "\(error)")
            #expect(error.underlying?.contains("bowl") == true, "\(error)")
        }
    }

    @Test func theDurationProbeKnowsTheBowlAndNothingElse() {
        #expect(FileDurationProbe.duration(of: URL(string: "tonearm:bowl")!) == 12)
        for name in ["brown", "pink", "silence", "alarm", "xyz"] {
            #expect(FileDurationProbe.duration(of: URL(string: "tonearm:\(name)")!) == nil)
        }
    }

    @Test func silenceIsEndlessZerosAndALoopOfTwoSecondsIsExactly96000Frames() throws {
        let silence = SynthesizedDecoder(sound: .silence)
        let some = try silence.readFrames(100_000)
        #expect(some.count == 200_000)
        #expect(some.allSatisfy { $0 == 0 })
        let looped = LoopingDecoder(source: SynthesizedDecoder(sound: .silence), loop: SourceLoop(.seconds(2)))
        #expect(looped.duration == 2)
        let frames = try looped.readFrames(1_000_000)
        #expect(frames.count == 96_000 * 2)
        #expect(frames.allSatisfy { $0 == 0 })
    }

    @Test func theAlarmChimesHighThenLowThenPausesEverySecond() throws {
        let decoder = SynthesizedDecoder(sound: .alarm)
        #expect(decoder.duration == nil)
        let left = SignalMetrics.channel(0, of: try decoder.readFrames(3 * 48_000))
        #expect(left.count == 3 * 48_000)
        // The tones' pitch from their zero crossings, away from the fades.
        let high = SignalMetrics.zeroCrossingsPerSecond(Array(left[1_000..<11_000]), sampleRate: 48_000) / 2
        let low = SignalMetrics.zeroCrossingsPerSecond(Array(left[13_000..<23_000]), sampleRate: 48_000) / 2
        #expect(abs(high - 880) < 5, "first tone \(high) Hz")
        #expect(abs(low - 660) < 5, "second tone \(low) Hz")
        #expect(Array(left[24_000..<48_000]).allSatisfy { $0 == 0 })
        // Every repeat alike, at -6 dBFS.
        #expect(Array(left[0..<48_000]) == Array(left[48_000..<96_000]))
        #expect(Array(left[0..<48_000]) == Array(left[96_000..<144_000]))
        let peak = SignalMetrics.dBFS(Double(SignalMetrics.peak(left)))
        #expect(abs(peak - -6) < 0.05, "peak \(peak) dBFS")
    }

    @Test func theAlarmNeverStepsMoreThanItsHighestTone() throws {
        let left = SignalMetrics.channel(0, of: try SynthesizedDecoder(sound: .alarm).readFrames(2 * 48_000))
        // A pure 880 Hz sine at the chime's peak changes by at most 2π · 880 / 48 000 · peak per
        // frame; a click at a tone's edge or at a repeat would step further.
        let limit = Float(2 * Double.pi * 880 / 48_000 * AlarmChime.peak) * 1.001
        let steps = zip(left, left.dropFirst()).map { abs($1 - $0) }
        #expect(steps.max()! <= limit, "largest step \(steps.max()!) over \(limit)")
        #expect(left[0] == 0)
    }

    @Test func theAlarmSeeksIntoItsRepeats() throws {
        let whole = try SynthesizedDecoder(sound: .alarm).readFrames(3 * 48_000)
        let decoder = SynthesizedDecoder(sound: .alarm)
        try decoder.seek(to: 1.25)
        let from = 60_000
        #expect(try decoder.readFrames(30_000) == Array(whole[(from * 2)..<((from + 30_000) * 2)]))
    }
}
