import CFFmpeg
import Foundation
import PlayerCore

/// An input opened for decoding (MPD's "open input" and "probe" steps): a local file or a
/// `ByteSource` behind FFmpeg's custom I/O, its format found by content, the best audio stream
/// chosen, its decoder opened, and what the stream states about itself read once. Every failure
/// is a typed `PlaybackError`, as `FFmpegDecoder` documents them.
struct FFmpegInput {
    var handles: FFmpegHandles
    var streamIndex: Int32 = -1
    var timeBase = AVRational(num: 1, den: 1)
    /// The stream's first timestamp: position 0 of a seek (an mp3's encoder delay, an Ogg page
    /// offset).
    var startTimestamp: Int64 = 0
    /// Seconds a seek lands before its target, for a lossy codec to rebuild its state.
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
    static var empty: FFmpegInput { FFmpegInput(handles: FFmpegHandles(), duration: 0) }

    /// Opens a local file: its errors are the kernel's (stat(2), open(2)) before FFmpeg's.
    static func file(_ url: URL) throws(PlaybackError) -> FFmpegInput {
        try FFmpegLibraries.load()
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

        var opened = FFmpegInput(handles: FFmpegHandles())
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

    /// Opens bytes from `source` through custom I/O, probing its first `probeSize` bytes by content
    /// (`formatHint` only breaks a tie).
    static func source(_ source: any ByteSource, formatHint: String?, probeSize: Int)
        throws(PlaybackError) -> FFmpegInput
    {
        try FFmpegLibraries.load()
        let bridge = ByteSourceBridge(source: source)
        var opened = FFmpegInput(handles: FFmpegHandles())
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

        // Probe by content; the hint only breaks a tie (see `FFmpegDecoder.init(source:)`).
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
    private static func prepareDecoder(_ opened: inout FFmpegInput, notMedia: PlaybackError.Code) throws(PlaybackError) {
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
        opened.tags = FFmpegMetadata.tags(in: format.pointee.metadata).merging(FFmpegMetadata.tags(in: stream.pointee.metadata)) { _, stream in stream }
        opened.chapters = FFmpegMetadata.chapters(of: format)
        if let descriptor = avcodec_descriptor_get(parameters.pointee.codec_id),
            descriptor.pointee.props & AV_CODEC_PROP_LOSSY != 0
        {
            let declared = Double(parameters.pointee.seek_preroll) / Double(parameters.pointee.sample_rate)
            opened.seekPreroll = max(0.1, declared)
        }
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
