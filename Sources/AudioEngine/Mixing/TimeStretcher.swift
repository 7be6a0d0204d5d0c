import CSonic
import Foundation
import Media

/// Changes the speed of 48 kHz stereo audio with the pitch kept, through libsonic (chosen over
/// librubberband and FFmpeg's atempo by measurement on speech: `scripts/bench/stretch`). Samples
/// go in at media rate and come out at `rate` times fewer frames; a change of `rate` takes effect
/// on the next samples written, without a gap. Used by one thread at a time (a deck's renderer).
final class TimeStretcher {
    private var stream: sonicStream
    private(set) var rate: Double

    init(rate: Double) {
        self.rate = rate
        stream = Self.makeStream(rate: rate)
    }

    deinit { sonicDestroyStream(stream) }

    func setRate(_ rate: Double) {
        self.rate = rate
        sonicSetSpeed(stream, Float(rate))
    }

    /// Feeds `frames` frames of media.
    func write(_ samples: UnsafeMutablePointer<Float>, frames: Int) {
        guard frames > 0 else { return }
        sonicWriteFloatToStream(stream, samples, Int32(frames))
    }

    /// Takes up to `maxFrames` stretched frames; returns how many.
    func read(into samples: UnsafeMutablePointer<Float>, maxFrames: Int) -> Int {
        guard maxFrames > 0 else { return 0 }
        return Int(max(0, sonicReadFloatFromStream(stream, samples, Int32(maxFrames))))
    }

    /// Stretched frames ready to be read.
    var available: Int { Int(max(0, sonicSamplesAvailable(stream))) }

    /// The media has ended: what is held back is processed and made available.
    func flush() { sonicFlushStream(stream) }

    /// Forgets everything written (a seek).
    func reset() {
        sonicDestroyStream(stream)
        stream = Self.makeStream(rate: rate)
    }

    private static func makeStream(rate: Double) -> sonicStream {
        let stream = sonicCreateStream(Int32(AudioFormat.sampleRate), Int32(AudioFormat.channelCount))!
        sonicSetSpeed(stream, Float(rate))
        return stream
    }
}
