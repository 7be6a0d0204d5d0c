import AudioEngine
import Foundation
import Media
import PlayerCore
import Streaming
import Synchronization

/// A finished HLS playlist (`#EXT-X-ENDLIST`: a recording, an episode, a past broadcast) as one
/// decoder with a length that can seek.
///
/// The segments reach FFmpeg joined into one byte stream, which has no index to seek in (an
/// MPEG-TS or ADTS concatenation, or fragments without a segment index). So a seek opens the
/// stream again at the segment that holds the target, as the playlist's durations say, and
/// decodes the rest of the way, discarding at most one segment of audio: exact to the frame, and
/// one segment's download however far the jump.
///
/// `@unchecked Sendable`: `read` and `seek` come from the deck's one decoding thread; only
/// `interrupt()` comes from another, and it goes through `current`'s lock.
final class HLSRecordingDecoder: AudioDecoder, @unchecked Sendable {
    /// Opens the stream at a segment's sequence number.
    typealias Opener = (_ sequence: Int) throws(PlaybackError) -> StreamDecoder

    private let segments: [HLSSegment]
    /// Where each segment starts, seconds from the beginning.
    private let starts: [Double]
    private let open: Opener
    private let current: Mutex<Current>

    private struct Current {
        var decoder: StreamDecoder
        var interrupted = false
    }

    /// The decoder for the playlist's first segments, already open (it told the load that the
    /// playlist is finished), and how to open it again elsewhere.
    init(playlist: HLSMediaPlaylist, first: StreamDecoder, open: @escaping Opener) {
        segments = playlist.segments
        var starts: [Double] = []
        var at = 0.0
        for segment in playlist.segments {
            starts.append(at)
            at += max(0, segment.duration)
        }
        self.starts = starts
        duration = at > 0 ? at : nil
        self.open = open
        current = Mutex(Current(decoder: first))
    }

    let duration: Double?
    var isFiniteRecording: Bool { true }
    var skippedCorruptPackets: Int { current.withLock { $0.decoder.skippedCorruptPackets } }
    var tags: [String: String] { current.withLock { $0.decoder.tags } }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(PlaybackError) -> Int {
        let decoder = current.withLock { $0.decoder }
        return try decoder.read(into: buffer, maxFrames: maxFrames)
    }

    func seek(to seconds: Double) throws(PlaybackError) {
        guard !segments.isEmpty else { return }
        let target = min(max(0, seconds), duration ?? 0)
        let index = Self.segmentIndex(at: target, starts: starts)
        let decoder = try open(segments[index].sequence)
        let replaced: StreamDecoder? = current.withLock { current in
            guard !current.interrupted else { return nil }
            let old = current.decoder
            current.decoder = decoder
            return old
        }
        guard let replaced else {
            decoder.interrupt()
            throw PlaybackError(.cancelled, underlying: "HLS recording closed during a seek")
        }
        replaced.interrupt()
        try discard(seconds: target - starts[index], from: decoder)
    }

    func interrupt() {
        let decoder = current.withLock { current in
            current.interrupted = true
            return current.decoder
        }
        decoder.interrupt()
    }

    /// The segment that holds `seconds`: the last one starting at or before it.
    static func segmentIndex(at seconds: Double, starts: [Double]) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= seconds { low = middle } else { high = middle - 1 }
        }
        return max(0, low)
    }

    /// Decodes and drops `seconds` of audio: the way from a segment's start to a seek's target.
    private func discard(seconds: Double, from decoder: StreamDecoder) throws(PlaybackError) {
        var remaining = Int((seconds * Double(AudioFormat.sampleRate)).rounded())
        guard remaining > 0 else { return }
        let chunk = 4096
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: chunk * AudioFormat.channelCount)
        defer { scratch.deallocate() }
        while remaining > 0 {
            let got = try decoder.read(into: scratch, maxFrames: min(chunk, remaining))
            if got == 0 { return }
            remaining -= got
        }
    }
}
