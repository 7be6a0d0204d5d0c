import Media
import PlayerCore

/// Anything that yields audio in the internal format (MPD's decoder-plugin idea: every input
/// format behind one narrow interface). One thread uses a decoder at a time.
package protocol AudioDecoder: AnyObject {
    /// Length in seconds when the container knows it.
    var duration: Double? { get }
    /// Packets that could not be decoded and were skipped (corrupt data in the middle).
    var skippedCorruptPackets: Int { get }
    /// The source's metadata tags (a ReplayGain or R128 gain among them), if it has any.
    var tags: [String: String] { get }
    /// The source's own chapters (ID3 `CHAP`, an MP4 chapter track), in order; empty for most.
    var chapters: [Chapter] { get }
    /// Decodes up to `maxFrames` frames of interleaved stereo Float32 at 48 kHz into `buffer` and
    /// returns how many it wrote; 0 means the end of the source. A truncated source ends cleanly.
    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(PlaybackError) -> Int
    /// Moves to `seconds` from the start (clamped to the source).
    func seek(to seconds: Double) throws(PlaybackError)
    /// Wakes a `read` blocked on its source (a network stream) so the deck can stop. Called from
    /// another thread; after it, `read` may throw. Files need nothing.
    func interrupt()
    /// True when the address was taken for a live stream but holds a finished recording (an HLS
    /// playlist with an end): the track has an end and can seek, like an episode.
    var isFiniteRecording: Bool { get }
    /// True when the frames are computed, never waited for: `read` and `seek` touch no storage
    /// or network and never allocate. The deck then reads it on the render thread as it mixes,
    /// with no decode thread or queue between (Tonearm's own sounds: a bed of noise, silence).
    var isSafeOnRenderThread: Bool { get }
}

extension AudioDecoder {
    package func interrupt() {}
    package var tags: [String: String] { [:] }
    package var chapters: [Chapter] { [] }
    package var isFiniteRecording: Bool { false }
    package var isSafeOnRenderThread: Bool { false }
}

/// FFmpeg's decoder (`Media`) is the engine's decoder for every file and stream.
extension FFmpegDecoder: AudioDecoder {}
