import AudioEngine
import Media
import PlayerCore
import Streaming

/// FFmpeg decoding bytes from an HTTP source (a live `HTTPByteSource` or an episode's
/// `ResumableHTTPSource`), with the source's lifetime tied to the decoder's: `interrupt()` (a
/// stopping deck) closes the connection, which wakes a read blocked on it.
final class StreamDecoder: AudioDecoder, Sendable {
    private let decoder: FFmpegDecoder
    let source: any ByteSource

    init(decoder: FFmpegDecoder, source: any ByteSource) {
        self.decoder = decoder
        self.source = source
    }

    deinit { source.close() }

    var duration: Double? { decoder.duration }
    var skippedCorruptPackets: Int { decoder.skippedCorruptPackets }
    var tags: [String: String] { decoder.tags }
    var chapters: [Chapter] { decoder.chapters }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(PlaybackError) -> Int {
        try decoder.read(into: buffer, maxFrames: maxFrames)
    }

    func seek(to seconds: Double) throws(PlaybackError) { try decoder.seek(to: seconds) }

    func interrupt() { source.close() }
}
