import CFFmpeg
import Foundation
import PlayerCore

/// Decodes any audio FFmpeg can demux (mp3, AAC/m4a, Ogg Vorbis, Opus, FLAC, WAV...) from a local
/// file or a `ByteSource`, and resamples it with libswresample to Tonearm's internal format
/// (48 kHz, Float32, stereo, interleaved; mono goes to both channels at full level, more than two
/// channels are downmixed with FFmpeg's standard matrix).
///
/// Failures are typed (`PlaybackError`):
/// - missing file or a directory: `fileNotFound`; no read permission: `permissionDenied` (both
///   decided with stat(2)/open(2) before FFmpeg runs, so the errno mapping is exact);
/// - a local file FFmpeg cannot identify, with no audio stream or no decoder: `unsupportedFormat`;
/// - bytes from a `ByteSource` that are not a known media format at all (an HTML error page, a
///   captive portal's login form): `wrongContentType`, which tells the user the *server* sent the
///   wrong thing and may be retried; media with no audio stream: `unsupportedFormat`;
/// - a `ByteSource` error (such as `connectionLost`): that same error, from `init` when it
///   happens while probing, otherwise from `read`: the call that hits it returns the frames
///   decoded before it, the next call throws, and every later call throws the same error;
/// - `seek(to:)` on a plain `ByteSource` (a live stream): `unknown` ("not seekable"); no new code
///   was added for a case the player never asks for. A `SeekableByteSource` (an episode over HTTP
///   with Range support) seeks like a file, see "Seeking a source" below.
///
/// An empty file or an empty source ends cleanly: `read` returns 0 at once and `duration` is 0.
/// Corrupt packets in the middle are skipped and counted; a truncated file ends cleanly.
///
/// The downmix of more than two channels follows FFmpeg's (and mpv's) default: centre and
/// surrounds at -3 dB, not normalised, so dialogue keeps its level; a loud 5.1 mix can exceed
/// 1.0, and the output stage clips like every other float source.
///
/// Seeking a source: FFmpeg's fast seek is enabled for `SeekableByteSource`s, so a seek costs one
/// request at an estimated byte instead of reading everything before the target (FFmpeg's generic
/// seek, which local files use). For a constant-bitrate mp3 with a Xing/Info header (what LAME
/// writes) the estimate lands on an exact frame and the target sample is exact; for a VBR mp3 the
/// header's table of contents is used, and an mp3 with neither is positioned by its average bitrate:
/// such a seek can be off by a fraction of a second, which is acceptable for resuming an episode.
/// While an mp3 or ADTS stream opens, the source's size is hidden from FFmpeg: those demuxers would
/// otherwise read the ID3v1/APE tag at the end of the file and come back, two requests that buy
/// nothing Tonearm uses (episode metadata comes from the feed).
///
/// The parts, as MPD's FFmpeg plugin divides them: `FFmpegInput` opens and probes (with
/// `ByteSourceBridge` as the custom I/O), `FFmpegResampler` converts, `FFmpegMetadata` reads tags
/// and chapters, `FFmpegHandles` owns the contexts; this type is the decoding loop and seeking.
///
/// `@unchecked Sendable`: the decoder has mutable state and no locks because it is used by one
/// thread at a time. It is created on a loader thread (opening and probing may block) and then
/// handed to the deck thread that calls `read` and `seek`; the hand-off is the only crossing.
package final class FFmpegDecoder: @unchecked Sendable {
    /// Length in seconds from the container or stream; nil when unknown (live streams).
    package let duration: Double?
    package private(set) var skippedCorruptPackets = 0
    /// Local files and `SeekableByteSource`s are seekable; other `ByteSource`s (live streams) are not.
    package let isSeekable: Bool
    /// The container's and the audio stream's metadata (stream entries win), for loudness tags.
    /// Untrusted text, bounded: at most `MediaLimits.maxTags` entries of bounded length.
    package let tags: [String: String]
    /// The container's chapters (ID3v2 `CHAP` frames in an mp3, an MP4/M4A chapter track, Matroska
    /// and Ogg chapters), each converted from its own time base to seconds, titled by its
    /// `title` metadata, sanitised, sorted and bounded by `ChapterList`; empty when it has none.
    /// Read once while opening, as FFmpeg parses them with the header.
    package let chapters: [Chapter]
    /// The audio stream's bit rate in bits per second as its parameters (or the container) state
    /// it; nil when neither does. What a live stream's buffered bytes are worth in seconds.
    package let bitRate: Int?
    /// Frames per second of what `read` gives: 48 000, or the source's own rate.
    package let outputRate: Int
    /// Interleaved channels of what `read` gives: 2, or 1 for a mono file being measured.
    private let channels: Int
    package var outputChannels: Int { channels }

    private let handles: FFmpegHandles
    private let streamIndex: Int32
    private let timeBase: AVRational
    /// The stream's first timestamp: position 0 of `seek(to:)` (an mp3's encoder delay, an Ogg
    /// page offset).
    private let startTimestamp: Int64
    /// Seconds to land before a seek target. Lossy decoders rebuild their state from the packets
    /// before a position (MDCT overlap, the mp3 bit reservoir, Opus's 80 ms pre-roll), so the
    /// first frames after landing are wrong; landing early puts those frames before the target,
    /// where they are dropped anyway.
    private let seekPreroll: Double

    private enum Phase {
        case decoding
        /// The demuxer ended and the decoder got its flush packet; frames still come out.
        case draining
        case finished
        /// The `ByteSource` failed; every later `read` throws this.
        case failed(PlaybackError)
    }

    private var phase: Phase
    /// A packet the decoder refused with EAGAIN; sent again before reading another.
    private var packetPending = false
    /// Failures in a row without progress (no frame decoded, no packet read, no byte consumed);
    /// bounds every retry so nothing spins. Corrupt packets that were read do not count: a long
    /// damaged stretch is skipped packet by packet and decoding goes on after it.
    private var consecutiveFailures = 0
    /// Where the byte reader stood at the last demuxer failure, to tell a resync from a stall.
    private var lastFailurePosition: Int64 = -1
    private static let maximumConsecutiveFailures = 64

    /// Converts decoded frames to the output format and holds what did not fit a call.
    private let resampler: FFmpegResampler

    /// After a seek: the target in seconds, until a decoded frame reaches it. Demuxers can only
    /// land on a packet (or key frame) at or before the target, so the first frames decoded
    /// after a seek start early; their samples before the target are dropped so the first frame
    /// returned is the target frame, which crossfades and resumes need to be sample-accurate.
    /// Dropping happens at the input rate, before resampling: the resampler then starts on the
    /// target's own input sample, which keeps its output on the same 48 kHz grid as a decode
    /// from the start (to within half an input sample), and no work is spent on dropped audio.
    private var seekTarget: Double?

    // MARK: - Opening

    /// Opens a local file (a file URL). Non-file URLs throw `unsupportedFormat`: streams arrive
    /// through `init(source:)`, so FFmpeg's own network protocols are never used.
    package convenience init(url: URL) throws(PlaybackError) {
        self.init(input: try FFmpegInput.file(url))
    }

    /// A local file decoded at its own sample rate, and a mono file as mono (interleaved Float32):
    /// for measuring it, where resampling to 48 kHz stereo would only cost time. `outputRate` and
    /// `outputChannels` say what `read` gives.
    package convenience init(measuring url: URL) throws(PlaybackError) {
        let input = try FFmpegInput.file(url)
        self.init(input: input, outputRate: input.sampleRate, outputChannels: input.channelCount == 1 ? 1 : AudioFormat.channelCount)
    }

    /// Opens a local file by path.
    package convenience init(path: String) throws(PlaybackError) {
        try self.init(url: URL(fileURLWithPath: path))
    }

    /// Decodes bytes from `source` through FFmpeg's custom I/O; seekable when `source` is a
    /// `SeekableByteSource`.
    ///
    /// - Parameters:
    ///   - formatHint: a demuxer name (`mp3`, `aac`, `ogg`...) or a MIME type (`audio/mpeg`...),
    ///     used only when probing the first bytes gives no confident answer (so a wrong
    ///     Content-Type never forces the wrong demuxer onto good audio).
    ///   - probeSize: bytes FFmpeg may read to identify the format and its parameters (about 32 KB
    ///     for live streams: FFmpeg's default of 5 MB costs seconds).
    ///
    /// The decoder never calls `source.close()`; its owner does, to wake a blocked read.
    package convenience init(source: any ByteSource, formatHint: String? = nil, probeSize: Int = 32_768)
        throws(PlaybackError)
    {
        self.init(input: try FFmpegInput.source(source, formatHint: formatHint, probeSize: probeSize))
    }

    private init(input: FFmpegInput, outputRate: Int = AudioFormat.sampleRate, outputChannels: Int = AudioFormat.channelCount) {
        self.outputRate = max(1, outputRate)
        channels = outputChannels
        handles = input.handles
        streamIndex = input.streamIndex
        timeBase = input.timeBase
        startTimestamp = input.startTimestamp
        seekPreroll = input.seekPreroll
        duration = input.duration
        isSeekable = input.isSeekable
        tags = input.tags
        chapters = input.chapters
        bitRate = input.bitRate
        resampler = FFmpegResampler(outputRate: max(1, outputRate), channels: outputChannels, endSeconds: input.endSeconds)
        phase = input.handles.codec == nil ? .finished : .decoding
        // `handles` and `resampler` free their FFmpeg objects when the decoder goes.
    }

    // MARK: - Reading

    /// Decodes up to `maxFrames` frames of the internal format into `buffer` and returns how many it
    /// wrote; 0 means the end of the source (see the failures above).
    package func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(PlaybackError) -> Int {
        guard maxFrames > 0 else { return 0 }
        var written = 0
        while written < maxFrames {
            let destination = buffer + written * channels
            if resampler.hasLeftover {
                written += resampler.takeLeftover(into: destination, maxFrames: maxFrames - written)
                continue
            }
            switch phase {
            case .finished:
                return written
            case .failed(let error):
                // Hand out what was decoded before the failure; the next call throws.
                if written > 0 { return written }
                throw error
            case .decoding, .draining:
                written += try decodeStep(into: destination, space: maxFrames - written)
            }
        }
        return written
    }

    /// Moves to `seconds` from the start (clamped to the source); the next frame read is the target's.
    package func seek(to seconds: Double) throws(PlaybackError) {
        guard let format = handles.format, let codec = handles.codec else { return }  // empty: nothing to move
        guard isSeekable else {
            throw PlaybackError(.unknown, underlying: "seek: the source is a live stream and is not seekable")
        }
        var target = seconds.isFinite ? max(0, seconds) : 0
        if let duration { target = min(target, duration) }
        let landing = max(0, target - seekPreroll)
        let timestamp =
            startTimestamp
            + av_rescale_q(Int64(landing * Double(AV_TIME_BASE)), tonearm_av_time_base_q(), timeBase)
        var status = avformat_seek_file(format, streamIndex, Int64.min, timestamp, timestamp, 0)
        if status < 0 {
            status = av_seek_frame(format, streamIndex, timestamp, AVSEEK_FLAG_BACKWARD)
        }
        guard status >= 0 else {
            throw PlaybackError(.unknown, underlying: FFmpegError.describe("seek", status))
        }
        // Nothing decoded before the seek may leak out after it: the codec's delay line, the
        // resampler's filter history (rebuilt lazily from the next frame), leftovers.
        avcodec_flush_buffers(codec)
        resampler.restart(atFrame: Int64((target * Double(outputRate)).rounded()))
        if packetPending, let packet = handles.packet {
            av_packet_unref(packet)
            packetPending = false
        }
        consecutiveFailures = 0
        phase = .decoding
        seekTarget = target
    }

    // MARK: - Decoding

    /// One step of the decode loop; each step decodes a frame, feeds one packet, or ends, so the
    /// loop in `read` always progresses. Returns frames written to `destination`.
    private func decodeStep(into destination: UnsafeMutablePointer<Float>, space: Int) throws(PlaybackError) -> Int {
        guard let codec = handles.codec, let frame = handles.frame else {
            phase = .finished
            return 0
        }
        let received = avcodec_receive_frame(codec, frame)
        if received == 0 {
            defer { av_frame_unref(frame) }
            consecutiveFailures = 0
            return emit(frame, into: destination, space: space)
        }
        if received == FFmpegError.again {
            if case .draining = phase {
                finish()  // flushed and still asking for input: nothing more will come
            } else {
                feedDecoder()
            }
            return 0
        }
        if received == FFmpegError.endOfFile {
            finish()
            return 0
        }
        if received == FFmpegError.outOfMemory {
            throw PlaybackError(.unknown, underlying: FFmpegError.describe("decode", received))
        }
        // The decoder rejected a frame (corrupt data reported at output): skip it.
        skippedCorruptPackets += 1
        noteFailure()
        return 0
    }

    /// Sends the next packet of our stream to the decoder; at the end of the input (or a read
    /// error, as on a truncated file) sends the flush packet instead so the last frames come out.
    private func feedDecoder() {
        guard let format = handles.format, let codec = handles.codec, let packet = handles.packet else {
            phase = .finished
            return
        }
        if packetPending {
            packetPending = false
            let sent = avcodec_send_packet(codec, packet)
            av_packet_unref(packet)
            if sent < 0 { rejectPacket(sent) }
            return
        }
        while true {
            let status = av_read_frame(format, packet)
            if status < 0 {
                if let error = handles.bridge?.error {
                    phase = .failed(error)
                    return
                }
                if status == FFmpegError.invalidData || status == FFmpegError.again {
                    // The demuxer lost sync on damaged bytes; it resyncs on the next call. A
                    // demuxer that keeps failing in place ends the track instead of spinning.
                    if status == FFmpegError.invalidData { skippedCorruptPackets += 1 }
                    let position = format.pointee.pb.map { avio_tell($0) } ?? -1
                    if position != lastFailurePosition { consecutiveFailures = 0 }
                    lastFailurePosition = position
                    if noteFailure() { continue }
                    return
                }
                // End of file, or a read error on a truncated file: drain the decoder, then end.
                avcodec_send_packet(codec, nil)
                phase = .draining
                return
            }
            consecutiveFailures = 0
            guard packet.pointee.stream_index == streamIndex else {
                av_packet_unref(packet)
                continue
            }
            let sent = avcodec_send_packet(codec, packet)
            if sent == FFmpegError.again {
                packetPending = true  // the decoder is full; send it after the next frame
                return
            }
            av_packet_unref(packet)
            if sent < 0 { rejectPacket(sent) }
            return
        }
    }

    private func rejectPacket(_ status: Int32) {
        if status == FFmpegError.outOfMemory {
            phase = .failed(PlaybackError(.unknown, underlying: FFmpegError.describe("decode", status)))
            return
        }
        // AVERROR_INVALIDDATA and friends: one corrupt packet, not the end of the track.
        skippedCorruptPackets += 1
    }

    /// Counts a failure without progress; returns false (and ends the track) past the limit.
    @discardableResult
    private func noteFailure() -> Bool {
        consecutiveFailures += 1
        guard consecutiveFailures <= Self.maximumConsecutiveFailures else {
            finish()
            return false
        }
        return true
    }

    /// End of stream: flush the resampler so its last filter taps reach the caller.
    private func finish() {
        resampler.drain()
        phase = .finished
    }

    // MARK: - Converting

    /// Converts `frame` into `destination` (what does not fit waits in the resampler), starting at
    /// a seek's target; returns frames written to `destination`.
    private func emit(
        _ frame: UnsafeMutablePointer<AVFrame>, into destination: UnsafeMutablePointer<Float>, space: Int
    ) -> Int {
        guard resampler.prepare(for: frame) else {
            skippedCorruptPackets += 1  // a frame with no usable rate, format or channels
            return 0
        }
        if let target = seekTarget {
            let early = samplesBefore(target, in: frame)
            guard early < Int(frame.pointee.nb_samples) else { return 0 }  // wholly before the target
            tonearm_frame_drop_front(frame, Int32(early))
            seekTarget = nil
        }
        return resampler.convert(frame, into: destination, space: space)
    }

    /// How many of `frame`'s samples (at its own rate) precede `target` seconds; 0 when the frame
    /// has no timestamp (nothing better to go by than starting where the demuxer landed).
    private func samplesBefore(_ target: Double, in frame: UnsafeMutablePointer<AVFrame>) -> Int {
        var timestamp = frame.pointee.best_effort_timestamp
        if timestamp == tonearm_av_nopts_value() { timestamp = frame.pointee.pts }
        guard timestamp != tonearm_av_nopts_value() else { return 0 }
        let rate = Double(frame.pointee.sample_rate)
        let frameStart = (Double(timestamp - startTimestamp) * av_q2d(timeBase) * rate).rounded()
        return Int(max(0, (target * rate).rounded() - frameStart))
    }
}
