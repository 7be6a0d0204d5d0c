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
/// `@unchecked Sendable`: the decoder has mutable state and no locks because it is used by one
/// thread at a time. It is created on a loader thread (opening and probing may block) and then
/// handed to the deck thread that calls `read` and `seek`; the hand-off is the only crossing.
public final class FFmpegDecoder: @unchecked Sendable {
    /// Length in seconds from the container or stream; nil when unknown (live streams).
    public let duration: Double?
    public private(set) var skippedCorruptPackets = 0
    /// Local files and `SeekableByteSource`s are seekable; other `ByteSource`s (live streams) are not.
    public let isSeekable: Bool
    /// The container's and the audio stream's metadata (stream entries win), for loudness tags.
    /// Untrusted text, bounded: at most `MediaLimits.maxTags` entries of bounded length.
    public let tags: [String: String]
    /// The container's chapters (ID3v2 `CHAP` frames in an mp3, an MP4/M4A chapter track, Matroska
    /// and Ogg chapters), each converted from its own time base to seconds, titled by its
    /// `title` metadata, sanitised, sorted and bounded by `ChapterList`; empty when it has none.
    /// Read once while opening, as FFmpeg parses them with the header.
    public let chapters: [Chapter]
    /// The audio stream's bit rate in bits per second as its parameters (or the container) state
    /// it; nil when neither does. What a live stream's buffered bytes are worth in seconds.
    public let bitRate: Int?
    /// Frames per second of what `read` gives: 48 000, or the source's own rate.
    public let outputRate: Int
    /// Interleaved channels of what `read` gives: 2, or 1 for a mono file being measured.
    private let channels: Int
    public var outputChannels: Int { channels }

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

    /// The input parameters the resampler was built for; a change mid-stream (chained Ogg, an
    /// mp3 that switches rate) rebuilds it after draining the old one.
    private var resamplerRate: Int32 = 0
    private var resamplerFormat: Int32 = -1
    private var resamplerLayout = AVChannelLayout()

    /// Converted frames that did not fit the caller's buffer. A decoded packet holds whatever the
    /// codec's frame size is (1152 samples for mp3, up to 4608 for FLAC) while the caller asks
    /// for its own period, and libswresample cannot be asked to hold converted output back
    /// without flushing; so a frame that would overflow is converted here and handed out over
    /// the next calls. Frames that fit go straight into the caller's buffer.
    private var leftover: UnsafeMutablePointer<Float>?
    private var leftoverCapacity = 0
    private var leftoverStart = 0
    private var leftoverCount = 0

    /// After a seek: the target in seconds, until a decoded frame reaches it. Demuxers can only
    /// land on a packet (or key frame) at or before the target, so the first frames decoded
    /// after a seek start early; their samples before the target are dropped so the first frame
    /// returned is the target frame, which crossfades and resumes need to be sample-accurate.
    /// Dropping happens at the input rate, before resampling: the resampler then starts on the
    /// target's own input sample, which keeps its output on the same 48 kHz grid as a decode
    /// from the start (to within half an input sample), and no work is spent on dropped audio.
    private var seekTarget: Double?

    /// Frames produced so far on the 48 kHz timeline (after a seek: from the seek target).
    private var producedFrames: Int64 = 0
    /// Where the audio ends on the 48 kHz timeline when the container says so exactly (MP4's
    /// edit list). FFmpeg 5.1 trims an AAC encoder's priming from the start but not its padding
    /// at the end (up to 1024 samples of near-silence), which would put a gap into gapless
    /// playback; frames past this end are dropped.
    private let endFrame: Int64?


    // MARK: - Opening

    /// Opens a local file (a file URL). Non-file URLs throw `unsupportedFormat`: streams arrive
    /// through `init(source:)`, so FFmpeg's own network protocols are never used.
    public convenience init(url: URL) throws(PlaybackError) {
        self.init(opened: try Self.openFile(url))
    }

    /// A local file decoded at its own sample rate, and a mono file as mono (interleaved Float32):
    /// for measuring it, where resampling to 48 kHz stereo would only cost time. `outputRate` and
    /// `outputChannels` say what `read` gives.
    public convenience init(measuring url: URL) throws(PlaybackError) {
        let opened = try Self.openFile(url)
        self.init(opened: opened, outputRate: opened.sampleRate, outputChannels: opened.channelCount == 1 ? 1 : AudioFormat.channelCount)
    }

    /// Opens a local file by path.
    public convenience init(path: String) throws(PlaybackError) {
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
    public convenience init(source: any ByteSource, formatHint: String? = nil, probeSize: Int = 32_768)
        throws(PlaybackError)
    {
        self.init(opened: try Self.openSource(source, formatHint: formatHint, probeSize: probeSize))
    }

    private init(opened: Opened, outputRate: Int = AudioFormat.sampleRate, outputChannels: Int = AudioFormat.channelCount) {
        self.outputRate = max(1, outputRate)
        channels = outputChannels
        handles = opened.handles
        streamIndex = opened.streamIndex
        timeBase = opened.timeBase
        startTimestamp = opened.startTimestamp
        seekPreroll = opened.seekPreroll
        duration = opened.duration
        isSeekable = opened.isSeekable
        tags = opened.tags
        chapters = opened.chapters
        bitRate = opened.bitRate
        endFrame = opened.endSeconds.map { Int64(($0 * Double(max(1, outputRate))).rounded()) }
        phase = opened.handles.codec == nil ? .finished : .decoding
    }

    deinit {
        av_channel_layout_uninit(&resamplerLayout)
        leftover?.deallocate()
        // `handles` frees the FFmpeg objects when it goes.
    }

    // MARK: - Reading

    /// Decodes up to `maxFrames` frames of the internal format into `buffer` and returns how many it
    /// wrote; 0 means the end of the source (see the failures above).
    public func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(PlaybackError) -> Int {
        guard maxFrames > 0 else { return 0 }
        var written = 0
        while written < maxFrames {
            let destination = buffer + written * channels
            if leftoverCount > 0 {
                written += takeLeftover(into: destination, maxFrames: maxFrames - written)
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
    public func seek(to seconds: Double) throws(PlaybackError) {
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
        resetResampler()
        if packetPending, let packet = handles.packet {
            av_packet_unref(packet)
            packetPending = false
        }
        leftoverStart = 0
        leftoverCount = 0
        consecutiveFailures = 0
        phase = .decoding
        seekTarget = target
        producedFrames = Int64((target * Double(outputRate)).rounded())
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
        drainResampler()
        phase = .finished
    }

    // MARK: - Resampling

    /// Converts `frame` into `destination` when the result surely fits, otherwise into the
    /// leftovers; returns frames written to `destination`.
    private func emit(
        _ frame: UnsafeMutablePointer<AVFrame>, into destination: UnsafeMutablePointer<Float>, space: Int
    ) -> Int {
        guard let resampler = resampler(for: frame) else {
            skippedCorruptPackets += 1  // a frame with no usable rate, format or channels
            return 0
        }
        if let target = seekTarget {
            let early = samplesBefore(target, in: frame)
            guard early < Int(frame.pointee.nb_samples) else { return 0 }  // wholly before the target
            tonearm_frame_drop_front(frame, Int32(early))
            seekTarget = nil
        }
        let inputCount = frame.pointee.nb_samples
        let bound = Int(swr_get_out_samples(resampler, inputCount))  // an upper bound
        let planes = tonearm_frame_planes(frame)
        if leftoverCount == 0, bound >= 0, bound <= space {
            let converted = tonearm_swr_convert_packed(resampler, destination, Int32(space), planes, inputCount)
            return keep(max(0, Int(converted)))
        }
        appendConverted(resampler, planes, inputCount, capacity: max(bound, 0) + 256)
        return takeLeftover(into: destination, maxFrames: space)
    }

    /// The resampler for `frame`'s parameters, built on the first frame and rebuilt when they
    /// change. The parameters come from the decoded frame, not the stream header, because only
    /// the frame is authoritative (decoders may pick their output format when opened).
    private func resampler(for frame: UnsafeMutablePointer<AVFrame>) -> OpaquePointer? {
        let rate = frame.pointee.sample_rate
        let format = frame.pointee.format
        if let existing = handles.resampler, rate == resamplerRate, format == resamplerFormat,
            av_channel_layout_compare(&resamplerLayout, &frame.pointee.ch_layout) == 0
        {
            return existing
        }
        if handles.resampler != nil {
            drainResampler()  // keep the old parameters' tail
            resetResampler()
        }
        var inputLayout = AVChannelLayout()
        defer { av_channel_layout_uninit(&inputLayout) }
        let channelCount = frame.pointee.ch_layout.nb_channels
        guard rate > 0, format >= 0, channelCount > 0 else { return nil }
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&inputLayout, channelCount)  // e.g. a WAV with no channel mask
        } else if av_channel_layout_copy(&inputLayout, &frame.pointee.ch_layout) < 0 {
            return nil
        }
        var outputLayout = AVChannelLayout()
        av_channel_layout_default(&outputLayout, Int32(channels))
        var context: OpaquePointer?
        guard
            swr_alloc_set_opts2(
                &context, &outputLayout, AV_SAMPLE_FMT_FLT, Int32(outputRate),
                &inputLayout, AVSampleFormat(rawValue: format), rate, 0, nil) >= 0,
            context != nil
        else { return nil }
        if channelCount == 1 && channels == 2 {
            // FFmpeg's default puts mono at -3 dB on each side (equal power for a centred source);
            // a player should play mono at the level it was mastered, on both speakers.
            let matrix: [Double] = [1, 1]
            swr_set_matrix(context, matrix, 1)
        }
        guard swr_init(context) >= 0 else {
            swr_free(&context)
            return nil
        }
        handles.resampler = context
        resamplerRate = rate
        resamplerFormat = format
        av_channel_layout_uninit(&resamplerLayout)
        _ = av_channel_layout_copy(&resamplerLayout, &frame.pointee.ch_layout)
        return context
    }

    private func resetResampler() {
        swr_free(&handles.resampler)
        resamplerRate = 0
        resamplerFormat = -1
        av_channel_layout_uninit(&resamplerLayout)
    }

    /// Converts into the end of the leftovers.
    @discardableResult
    private func appendConverted(
        _ resampler: OpaquePointer, _ planes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ inputCount: Int32,
        capacity: Int
    ) -> Int {
        reserveLeftover(frames: capacity)
        guard let base = leftover else { return 0 }
        let end = base + (leftoverStart + leftoverCount) * channels
        let converted = Int(tonearm_swr_convert_packed(resampler, end, Int32(capacity), planes, inputCount))
        guard converted > 0 else { return 0 }
        leftoverCount += keep(converted)
        return converted
    }

    /// Counts `frames` just produced and returns how many of them lie before `endFrame`.
    private func keep(_ frames: Int) -> Int {
        var kept = frames
        if let endFrame { kept = Int(max(0, min(Int64(frames), endFrame - producedFrames))) }
        producedFrames += Int64(frames)
        return kept
    }

    /// Flushes the resampler's delayed output into the leftovers (end of stream, format change).
    private func drainResampler() {
        guard let resampler = handles.resampler else { return }
        // Each flush call emits at most `capacity` frames and returns 0 when empty.
        for _ in 0..<64 {
            let capacity = max(Int(swr_get_out_samples(resampler, 0)), 0) + 1024
            if appendConverted(resampler, nil, 0, capacity: capacity) <= 0 { break }
        }
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

    // MARK: - Leftovers

    private func takeLeftover(into destination: UnsafeMutablePointer<Float>, maxFrames: Int) -> Int {
        let count = min(leftoverCount, maxFrames)
        guard count > 0, let base = leftover else { return 0 }
        destination.update(from: base + leftoverStart * channels, count: count * channels)
        leftoverStart += count
        leftoverCount -= count
        if leftoverCount == 0 { leftoverStart = 0 }
        return count
    }

    /// Makes room for `frames` more frames after the current leftovers.
    private func reserveLeftover(frames: Int) {
        if leftoverCount == 0 { leftoverStart = 0 }
        if leftoverStart + leftoverCount + frames <= leftoverCapacity { return }
        if let base = leftover, leftoverStart > 0 {
            let bytes = leftoverCount * channels * MemoryLayout<Float>.size
            memmove(base, base + leftoverStart * channels, bytes)
            leftoverStart = 0
        }
        let needed = leftoverCount + frames
        guard needed > leftoverCapacity else { return }
        let capacity = max(needed, leftoverCapacity * 2, 8192)
        let grown = UnsafeMutablePointer<Float>.allocate(capacity: capacity * channels)
        if let base = leftover {
            grown.update(from: base, count: leftoverCount * channels)
            base.deallocate()
        }
        leftover = grown
        leftoverCapacity = capacity
    }
}

// MARK: - Opening helpers

extension FFmpegDecoder {
    /// What `init` needs from an opened input.
    fileprivate struct Opened {
        var handles: FFmpegHandles
        var streamIndex: Int32 = -1
        var timeBase = AVRational(num: 1, den: 1)
        var startTimestamp: Int64 = 0
        var seekPreroll = 0.0
        var duration: Double?
        var isSeekable = false
        /// Where the audio ends, for containers whose stream duration is exact (see `exactEnd`).
        var endSeconds: Double?
        /// The stream's sample rate and channel count, as its parameters state them.
        var sampleRate = AudioFormat.sampleRate
        var channelCount = AudioFormat.channelCount
        var tags: [String: String] = [:]
        var chapters: [Chapter] = []
        var bitRate: Int?

        /// An input with no bytes: a decoder that ends at once.
        static var empty: Opened { Opened(handles: FFmpegHandles(), duration: 0) }
    }

    fileprivate static func openFile(_ url: URL) throws(PlaybackError) -> Opened {
        FFmpegLog.setUp()
        guard url.isFileURL else {
            throw PlaybackError(
                .unsupportedFormat, underlying: "FFmpegDecoder(url:) opens local files; streams use init(source:)")
        }
        let path = url.withUnsafeFileSystemRepresentation { $0.map { String(cString: $0) } } ?? ""
        // Ask the kernel first: FFmpeg folds many failures into one code, errno does not.
        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            throw PlaybackError.from(errno: code, underlying: "stat: \(String(cString: strerror(code)))")
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw PlaybackError(.fileNotFound, underlying: "the path is a directory")
        }
        let descriptor = open(path, O_RDONLY)
        if descriptor < 0 {
            let code = errno
            throw PlaybackError.from(errno: code, underlying: "open: \(String(cString: strerror(code)))")
        }
        close(descriptor)
        if info.st_size == 0 { return .empty }

        var opened = Opened(handles: FFmpegHandles())
        // "file:" keeps a path with a colon from being read as another protocol.
        let status = avformat_open_input(&opened.handles.format, "file:" + path, nil, nil)
        guard status >= 0, let format = opened.handles.format else {
            if let code = FFmpegError.posixErrno(status), [ENOENT, EACCES, EPERM, EISDIR].contains(code) {
                throw PlaybackError.from(errno: code, underlying: FFmpegError.describe("open", status))
            }
            throw PlaybackError(.unsupportedFormat, underlying: FFmpegError.describe("open", status))
        }
        _ = avformat_find_stream_info(format, nil)  // failure here shows as missing parameters below
        try prepareDecoder(&opened, notMedia: .unsupportedFormat)
        opened.isSeekable = format.pointee.pb != nil && format.pointee.pb.pointee.seekable != 0
        opened.endSeconds = exactEnd(of: format, streamIndex: opened.streamIndex)
        return opened
    }

    fileprivate static func openSource(_ source: any ByteSource, formatHint: String?, probeSize: Int)
        throws(PlaybackError) -> Opened
    {
        FFmpegLog.setUp()
        let bridge = ByteSourceBridge(source: source)
        var opened = Opened(handles: FFmpegHandles())
        opened.handles.bridge = bridge
        opened.handles.io = bridge.makeIOContext(bufferSize: 32_768)
        opened.handles.format = avformat_alloc_context()
        guard let io = opened.handles.io, let format = opened.handles.format else {
            throw PlaybackError(.unknown, underlying: "FFmpeg could not allocate the custom I/O context")
        }
        let probeBytes = min(max(probeSize, 2_048), 1 << 24)  // FFmpeg's lower bound is 2 KB
        format.pointee.pb = io
        format.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        format.pointee.probesize = Int64(probeBytes)
        format.pointee.format_probesize = Int32(probeBytes)
        format.pointee.max_analyze_duration = Int64(AV_TIME_BASE)  // 1 s of packets at most

        // Probe by content; the hint only breaks a tie (see init(source:)).
        var probed: UnsafePointer<AVInputFormat>?
        let score = av_probe_input_buffer2(io, &probed, "", nil, 0, UInt32(probeBytes))
        if let error = bridge.error { throw error }
        var chosen = probed
        if score < tonearm_avprobe_score_retry() || probed == nil, let hinted = demuxer(forHint: formatHint) {
            chosen = hinted
        }
        guard let chosen else {
            if bridge.bytesDelivered == 0 { return .empty }
            throw PlaybackError(
                .wrongContentType, underlying: "the stream's first bytes are not a known audio format")
        }
        let seekable = bridge.seekableSource != nil
        if seekable {
            format.pointee.flags |= AVFMT_FLAG_FAST_SEEK
            bridge.revealsSize = !hidesSizeWhileOpening(chosen)
        }
        let status = avformat_open_input(&opened.handles.format, "", chosen, nil)
        bridge.revealsSize = true
        if let error = bridge.error { throw error }
        guard status >= 0, let format = opened.handles.format else {
            throw PlaybackError(.wrongContentType, underlying: FFmpegError.describe("open", status))
        }
        let info = avformat_find_stream_info(format, nil)
        if let error = bridge.error { throw error }
        if info < 0, bridge.bytesDelivered == 0 { return .empty }
        try prepareDecoder(&opened, notMedia: .wrongContentType)
        opened.isSeekable = seekable
        return opened
    }

    /// Demuxers whose only use of the file's size while opening is a trailing tag (ID3v1, APE):
    /// `mp3` and `aac` (ADTS). Hiding the size makes them skip it; the size is shown again for
    /// everything after opening (duration estimates, seeking). Other demuxers need it to open
    /// (an Ogg file's duration is read from its last page, an MP4's index may be at the end).
    private static func hidesSizeWhileOpening(_ demuxer: UnsafePointer<AVInputFormat>) -> Bool {
        guard let name = demuxer.pointee.name else { return false }
        return ["mp3", "aac"].contains(String(cString: name))
    }

    /// Picks the best audio stream and opens its decoder. `notMedia` is the code for an input
    /// whose audio parameters could not be found at all.
    private static func prepareDecoder(_ opened: inout Opened, notMedia: PlaybackError.Code) throws(PlaybackError) {
        guard let format = opened.handles.format else { throw PlaybackError(.unknown, underlying: "no input") }
        var codec: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0)
        guard index >= 0, let codec, let stream = format.pointee.streams[Int(index)] else {
            let reason = index == FFmpegError.decoderNotFound ? "no decoder for the audio codec" : "no audio stream"
            throw PlaybackError(.unsupportedFormat, underlying: reason)
        }
        // Other streams (cover art, video) are never demuxed.
        for other in 0..<Int(format.pointee.nb_streams) where other != Int(index) {
            format.pointee.streams[other]?.pointee.discard = AVDISCARD_ALL
        }
        let parameters = stream.pointee.codecpar!
        guard parameters.pointee.sample_rate > 0, parameters.pointee.ch_layout.nb_channels > 0 else {
            throw PlaybackError(notMedia, underlying: "no audio parameters could be read")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw PlaybackError(.unknown, underlying: "FFmpeg could not allocate a codec context")
        }
        opened.handles.codec = context
        var status = avcodec_parameters_to_context(context, parameters)
        if status >= 0 {
            context.pointee.pkt_timebase = stream.pointee.time_base  // for skip-samples (gapless) trimming
            status = avcodec_open2(context, codec, nil)
        }
        guard status >= 0 else {
            throw PlaybackError(.unsupportedFormat, underlying: FFmpegError.describe("open decoder", status))
        }
        guard let packet = av_packet_alloc(), let frame = av_frame_alloc() else {
            throw PlaybackError(.unknown, underlying: "FFmpeg could not allocate a packet or frame")
        }
        opened.handles.packet = packet
        opened.handles.frame = frame
        opened.streamIndex = index
        opened.timeBase = stream.pointee.time_base
        let start = stream.pointee.start_time
        opened.startTimestamp = start == tonearm_av_nopts_value() ? 0 : start
        opened.duration = duration(of: format, stream: stream)
        opened.sampleRate = Int(parameters.pointee.sample_rate)
        opened.channelCount = Int(parameters.pointee.ch_layout.nb_channels)
        let streamRate = parameters.pointee.bit_rate, containerRate = format.pointee.bit_rate
        opened.bitRate = streamRate > 0 ? Int(streamRate) : containerRate > 0 ? Int(containerRate) : nil
        opened.tags = tags(in: format.pointee.metadata).merging(tags(in: stream.pointee.metadata)) { _, stream in stream }
        opened.chapters = chapters(of: format)
        if let descriptor = avcodec_descriptor_get(parameters.pointee.codec_id),
            descriptor.pointee.props & AV_CODEC_PROP_LOSSY != 0
        {
            let declared = Double(parameters.pointee.seek_preroll) / Double(parameters.pointee.sample_rate)
            opened.seekPreroll = max(0.1, declared)
        }
    }

    /// Entries of an FFmpeg dictionary, bounded (a file's metadata is untrusted).
    private static func tags(in dictionary: OpaquePointer?) -> [String: String] {
        var tags: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while tags.count < MediaLimits.maxTags, let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            entry = next
            guard let key = next.pointee.key, let value = next.pointee.value, strnlen(key, 65) <= 64, strnlen(value, 1025) <= 1024
            else { continue }
            tags[String(cString: key)] = String(cString: value)
        }
        return tags
    }

    /// The container's chapters in seconds. A file is untrusted: at most `ChapterList.maxCount`
    /// are read, a zero or negative time base or a non-finite time drops the chapter, a negative
    /// start is clamped to 0, and titles are cut at a tag's bound. Times are taken as the
    /// container states them, not moved by the stream's start time: that start is an encoder's
    /// delay (an mp3's LAME priming), which the decoder trims, so chapter times written against
    /// the original audio already match the positions the decoder reports.
    private static func chapters(of format: UnsafeMutablePointer<AVFormatContext>) -> [Chapter] {
        let count = min(Int(format.pointee.nb_chapters), ChapterList.maxCount)
        guard count > 0, let list = format.pointee.chapters else { return [] }
        let nothing = tonearm_av_nopts_value()
        var chapters: [Chapter] = []
        for index in 0..<count {
            guard let chapter = list[index] else { continue }
            let base = chapter.pointee.time_base
            guard base.num > 0, base.den > 0 else { continue }
            let seconds = av_q2d(base)
            let start = Double(chapter.pointee.start) * seconds
            let end = chapter.pointee.end == nothing ? nil : Double(chapter.pointee.end) * seconds
            guard start.isFinite, start > -1 else { continue }
            var title: String?
            if let entry = av_dict_get(chapter.pointee.metadata, "title", nil, 0), let value = entry.pointee.value {
                title = String(decoding: UnsafeRawBufferPointer(start: value, count: strnlen(value, 1024)), as: UTF8.self)
            }
            chapters.append(Chapter(start: max(0, start), end: end, title: title))
        }
        return ChapterList(trackID: "", origin: .embedded, chapters: chapters).chapters
    }

    private static func duration(
        of format: UnsafeMutablePointer<AVFormatContext>, stream: UnsafeMutablePointer<AVStream>
    ) -> Double? {
        let nothing = tonearm_av_nopts_value()
        if format.pointee.duration != nothing, format.pointee.duration > 0 {
            return Double(format.pointee.duration) / Double(AV_TIME_BASE)
        }
        if stream.pointee.duration != nothing, stream.pointee.duration > 0 {
            return Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base)
        }
        return nil
    }

    /// The end of the audio, seconds, for containers whose stream duration is exact (MP4/M4A: the
    /// edit list gives it to the sample); nil for all others, whose durations may be estimates (an
    /// mp3 without a Xing header) that must never cut real audio.
    private static func exactEnd(of format: UnsafeMutablePointer<AVFormatContext>, streamIndex: Int32) -> Double? {
        guard let name = format.pointee.iformat?.pointee.name, String(cString: name).contains("mp4"),
            let stream = format.pointee.streams[Int(streamIndex)]
        else { return nil }
        let length = stream.pointee.duration
        guard length != tonearm_av_nopts_value(), length > 0 else { return nil }
        return Double(length) * av_q2d(stream.pointee.time_base)
    }

    /// A demuxer for a short name (`mp3`) or a common audio MIME type (`audio/mpeg`).
    private static func demuxer(forHint hint: String?) -> UnsafePointer<AVInputFormat>? {
        guard let hint = hint?.lowercased().split(separator: ";").first?.trimmingCharacters(in: .whitespaces),
            !hint.isEmpty
        else { return nil }
        let mime: [String: String] = [
            "audio/mpeg": "mp3", "audio/mp3": "mp3", "audio/aac": "aac", "audio/aacp": "aac",
            "audio/x-aac": "aac", "audio/ogg": "ogg", "application/ogg": "ogg", "audio/opus": "ogg",
            "audio/flac": "flac", "audio/x-flac": "flac", "audio/wav": "wav", "audio/x-wav": "wav",
            "audio/wave": "wav", "audio/mp4": "mov", "audio/x-m4a": "mov",
        ]
        return av_find_input_format(mime[hint] ?? hint)
    }
}

/// Owns every FFmpeg object of one decoder, so each is freed exactly once on every path, also
/// when `init` throws halfway through opening.
final class FFmpegHandles {
    var format: UnsafeMutablePointer<AVFormatContext>?
    var codec: UnsafeMutablePointer<AVCodecContext>?
    var resampler: OpaquePointer?
    var packet: UnsafeMutablePointer<AVPacket>?
    var frame: UnsafeMutablePointer<AVFrame>?
    /// The custom I/O context; `avformat_close_input` does not free it.
    var io: UnsafeMutablePointer<AVIOContext>?
    /// The opaque object behind `io`'s callback; kept alive as long as `io`.
    var bridge: ByteSourceBridge?

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        swr_free(&resampler)
        avcodec_free_context(&codec)
        if let format, io != nil {
            format.pointee.pb = nil  // ours, not the format context's
        }
        avformat_close_input(&format)
        freeIOContext(&io)
    }
}
