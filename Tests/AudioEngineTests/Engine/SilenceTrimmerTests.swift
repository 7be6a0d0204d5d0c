import Foundation
import Testing

@testable import AudioEngine

/// Long silences shortened, short pauses kept, the cut without a click, the saving counted.
@Suite("Silence trimming")
struct SilenceTrimmerTests {
    /// `seconds` of a 440 Hz tone at 0.5 (0 for silence), interleaved stereo.
    static func part(_ seconds: Double, tone: Bool) -> [Float] {
        let frames = Int(seconds * 48_000)
        var out = [Float](repeating: 0, count: frames * 2)
        guard tone else { return out }
        for i in 0..<frames {
            let v = Float(0.5 * sin(2 * Double.pi * 440 * Double(i) / 48_000))
            out[2 * i] = v
            out[2 * i + 1] = v
        }
        return out
    }

    static func run(_ input: [Float], chunk: Int = 1_000) -> (out: [Float], trimmed: Int64) {
        let trimmer = SilenceTrimmer()
        var out: [Float] = []
        var scratch = [Float](repeating: 0, count: 4_096 * 2)
        input.withUnsafeBufferPointer { source in
            var frame = 0
            let frames = input.count / 2
            while frame < frames {
                let n = min(chunk, frames - frame)
                trimmer.write(source.baseAddress! + 2 * frame, frames: n)
                frame += n
                scratch.withUnsafeMutableBufferPointer { buffer in
                    while true {
                        let got = trimmer.read(into: buffer.baseAddress!, maxFrames: 4_096)
                        if got == 0 { break }
                        out += buffer[0..<(2 * got)]
                    }
                }
            }
        }
        trimmer.flush()
        scratch.withUnsafeMutableBufferPointer { buffer in
            while true {
                let got = trimmer.read(into: buffer.baseAddress!, maxFrames: 4_096)
                if got == 0 { break }
                out += buffer[0..<(2 * got)]
            }
        }
        return (out, trimmer.trimmedFrames)
    }

    @Test func aLongSilenceBecomesAQuarterSecondAndAShortPauseStays() {
        let input = Self.part(1, tone: true) + Self.part(3, tone: false) + Self.part(1, tone: true) + Self.part(0.3, tone: false)
            + Self.part(1, tone: true)
        let (out, trimmed) = Self.run(input)
        // Within a millisecond: the tone's own zero crossings sit at the edges of the silences.
        let secondsOut: Double = Double(out.count / 2) / 48_000
        let secondsTrimmed: Double = Double(trimmed) / 48_000
        #expect(abs(secondsOut - 3.55) < 0.001, "\(secondsOut) s out")
        #expect(abs(secondsTrimmed - 2.75) < 0.001)
        // No click: the largest step between neighbouring samples is the tone's own.
        let left = stride(from: 0, to: out.count, by: 2).map { out[$0] }
        let steps = zip(left, left.dropFirst()).map { abs($1 - $0) }
        #expect((steps.max() ?? 0) < 0.03, "largest step \(steps.max() ?? 0)")
    }

    @Test func offItPassesEverythingAndAHeldSilenceGoesOutAtTheEnd() {
        let input = Self.part(0.5, tone: true) + Self.part(0.4, tone: false)
        let (out, trimmed) = Self.run(input, chunk: 4_096)
        #expect(out.count == input.count)
        #expect(trimmed == 0)
        let off = SilenceTrimmer()
        off.isEnabled = false
        let silence = Self.part(2, tone: false)
        silence.withUnsafeBufferPointer { off.write($0.baseAddress!, frames: silence.count / 2) }
        #expect(off.availableFrames == 96_000 && off.trimmedFrames == 0)
    }
}
