import Foundation
import Media
import PlayerCore
import Synchronization

/// Reads `decoder` to its end in `chunk`-frame calls and returns the interleaved stereo samples.
/// Stops with a failure-worthy result instead of hanging when a decoder never ends.
func decodeAll(_ decoder: FFmpegDecoder, chunk: Int = 4096, limitFrames: Int = 48_000 * 120) throws(PlaybackError)
    -> [Float]
{
    var samples: [Float] = []
    var buffer = [Float](repeating: .nan, count: chunk * AudioFormat.channelCount)
    while samples.count / AudioFormat.channelCount < limitFrames {
        let frames = try buffer.withUnsafeMutableBufferPointer { (pointer) throws(PlaybackError) -> Int in
            try decoder.read(into: pointer.baseAddress!, maxFrames: chunk)
        }
        if frames == 0 { break }
        samples.append(contentsOf: buffer[0..<(frames * AudioFormat.channelCount)])
    }
    return samples
}

/// Frames in interleaved stereo samples.
func frameCount(_ samples: [Float]) -> Int { samples.count / AudioFormat.channelCount }

/// Bytes held in memory and delivered like a network stream: in chunks of at most `chunkSize`,
/// optionally failing with `failure` once `failAfter` bytes have gone out.
final class MemorySource: ByteSource {
    private let bytes: Data
    private let chunkSize: Int
    private let failAfter: Int?
    private let failure: PlaybackError
    private let position = Mutex(0)
    /// How many times `read` was called after the source had failed (the decoder must stop asking).
    let readsAfterFailure = Mutex(0)

    init(
        _ bytes: Data, chunkSize: Int = 997, failAfter: Int? = nil,
        failure: PlaybackError = PlaybackError(.connectionLost)
    ) {
        self.bytes = bytes
        self.chunkSize = chunkSize
        self.failAfter = failAfter
        self.failure = failure
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlaybackError) -> Int {
        let start = position.withLock { $0 }
        if let failAfter, start >= failAfter {
            readsAfterFailure.withLock { $0 += 1 }
            throw failure
        }
        var end = min(bytes.count, start + chunkSize, start + buffer.count)
        if let failAfter { end = min(end, failAfter) }
        guard end > start else { return 0 }
        bytes.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: start..<end)
        position.withLock { $0 = end }
        return end - start
    }

    func close() {}
}
