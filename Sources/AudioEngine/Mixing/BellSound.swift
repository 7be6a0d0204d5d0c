import Foundation
import Media
import PlayerCore

/// A bell's sound, decoded whole into memory once per session: a bell is short (a few seconds of
/// ring), is struck many times, and must start on an exact frame, which a streaming deck with its
/// own decoding thread could not promise. Immutable, so the render thread reads it freely.
final class BellSound: Sendable {
    /// Interleaved stereo frames at the engine's rate.
    let samples: [Float]
    var frames: Int { samples.count / AudioFormat.channelCount }

    /// The longest bell sound accepted (a longer file is cut here).
    static let maximumSeconds: Double = 60

    init(samples: [Float]) {
        self.samples = samples
    }

    /// Decodes all of `decoder`, up to `maximumSeconds`.
    static func decode(_ decoder: any AudioDecoder) throws(PlaybackError) -> BellSound {
        let limit = Int(AudioFormat.frames(forSeconds: maximumSeconds))
        let chunk = 4_096
        var samples: [Float] = []
        samples.reserveCapacity(min(limit, Int(AudioFormat.frames(forSeconds: decoder.duration ?? 10))) * AudioFormat.channelCount)
        var buffer = [Float](repeating: 0, count: chunk * AudioFormat.channelCount)
        var total = 0
        while total < limit {
            let got = try buffer.withUnsafeMutableBufferPointer { (b) throws(PlaybackError) in
                try decoder.read(into: b.baseAddress!, maxFrames: min(chunk, limit - total))
            }
            if got == 0 { break }
            samples.append(contentsOf: buffer[0..<(got * AudioFormat.channelCount)])
            total += got
        }
        return BellSound(samples: samples)
    }
}
