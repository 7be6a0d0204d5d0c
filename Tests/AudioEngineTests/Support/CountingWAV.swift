import Foundation
import TestProcesses

/// A 48 kHz, 16-bit stereo WAV whose frames number themselves: the left sample of frame n is
/// n / 32768 (so at most 32 768 frames) and the right one is a fixed marker / 32768, which tells
/// two such files apart. Decoded audio then says exactly which source frame each output frame is.
enum CountingWAV {
    static let sampleRate = 48_000

    static func data(frames: Int, marker: Int16 = 0) -> Data {
        precondition(frames <= 32_768, "frame numbers must fit a 16-bit sample")
        return PCMWAV.data(frames: frames, sampleRate: sampleRate, left: { Int16(truncatingIfNeeded: $0) }, right: { _ in marker })
    }

    /// The decoded value of source frame `n`'s left sample.
    static func sample(_ n: Int) -> Float { Float(Int16(truncatingIfNeeded: n)) / 32_768 }

    /// The frame number (or marker) a decoded sample carries.
    static func number(_ sample: Float) -> Int { Int((sample * 32_768).rounded()) }
}
