import Foundation
import Media
import PlayerCore
import Synchronization

/// Measures a local file's integrated loudness: from its ReplayGain or R128 tag when it has one,
/// else by decoding it whole. A long file is measured in parts on every core at once (each part
/// with its own decoder, seeked to its start) and the parts' meters are combined by libebur128,
/// which gates their blocks together as one meter would have: a 60-minute episode takes a
/// fraction of its decode time on one core.
package enum FileLoudness {
    /// Files shorter than this are measured in one part: seeking costs more than it saves.
    static let partsFrom = 120.0

    /// Nil when the file is silent throughout (no loudness to level).
    package static func measure(_ url: URL, parts requested: Int = ProcessInfo.processInfo.activeProcessorCount) throws(PlaybackError)
        -> Loudness?
    {
        // Measured at the file's own rate, and a mono file as mono (heard on both speakers, as it
        // plays): converting to 48 kHz stereo would cost time and change nothing the meter sees.
        let first = try FFmpegDecoder(measuring: url)
        if let tagged = Loudness.fromTags(first.tags) { return tagged }
        let duration = first.duration ?? 0
        let parts = duration >= partsFrom ? max(1, min(requested, 8)) : 1
        let rate = first.outputRate
        let meters = (0..<parts).map { _ in
            LoudnessMeter(measure: .integrated, sampleRate: rate, channels: first.outputChannels == 1 ? .dualMono : .stereo)
        }
        let failures = Failures()
        // `first` measures part 0; the others open their own decoders.
        DispatchQueue.concurrentPerform(iterations: parts) { index in
            do throws(PlaybackError) {
                let decoder = index == 0 ? first : try FFmpegDecoder(measuring: url)
                let start = duration * Double(index) / Double(parts)
                if index > 0 { try decoder.seek(to: start) }
                let frames: Int64? = index == parts - 1 ? nil : Int64((duration / Double(parts) * Double(rate)).rounded())
                try measurePart(decoder, frames: frames, into: meters[index])
            } catch {
                failures.record(error)
            }
        }
        if let error = failures.first { throw error }
        guard let integrated = LoudnessMeter.integrated(of: meters) else { return nil }
        return Loudness(integrated: integrated, source: .measured)
    }

    private static let chunkFrames = 16_384

    private static func measurePart(_ decoder: FFmpegDecoder, frames limit: Int64?, into meter: LoudnessMeter) throws(PlaybackError) {
        var buffer = [Float](repeating: 0, count: chunkFrames * decoder.outputChannels)
        var done: Int64 = 0
        while limit.map({ done < $0 }) ?? true {
            let wanted = limit.map { Int(min(Int64(chunkFrames), $0 - done)) } ?? chunkFrames
            let count = try buffer.withUnsafeMutableBufferPointer { (pointer) throws(PlaybackError) in
                try decoder.read(into: pointer.baseAddress!, maxFrames: wanted)
            }
            if count == 0 { return }
            buffer.withUnsafeBufferPointer { meter.add($0.baseAddress!, frames: count) }
            done += Int64(count)
        }
    }

    /// The first error of the parts.
    private final class Failures: Sendable {
        private let error = Mutex<PlaybackError?>(nil)
        func record(_ error: PlaybackError) { self.error.withLock { $0 = $0 ?? error } }
        var first: PlaybackError? { error.withLock { $0 } }
    }
}
