import CFFmpeg
import Foundation
import PlayerCore

/// A song's acoustic fingerprint as mpd's `getfingerprint` and chromaprint's own `fpcalc` compute
/// it: the first two minutes at the file's own sample rate, as 16-bit samples in the file's own
/// channels, given to chromaprint's default algorithm, and its compressed fingerprint in base64.
///
/// Chromaprint is reached through FFmpeg's `chromaprint` muxer, not by linking libchromaprint:
/// the libavformat Tonearm already loads is built with it, so the fingerprint costs no new
/// library, no new header package and no change to how the program is linked, and it is the
/// same libchromaprint `fpcalc` uses.
///
/// What is fed is bounded as mpd bounds it: two minutes of audio at most, whatever the file's
/// length. mpd stops after the decoder's chunk that crosses two minutes and `fpcalc` exactly at
/// two minutes; this stops exactly there too, so a song longer than two minutes may differ from
/// mpd's in its last few milliseconds of audio, never from `fpcalc`'s. A file of more than two
/// channels is mixed down to two by the decoder first (mpd gives chromaprint every channel), so
/// its fingerprint is close to mpd's but not always equal.
package enum ChromaprintFingerprint {
    /// mpd's and `fpcalc`'s default: the first two minutes.
    package static let maximumSeconds = 120

    /// The base64 fingerprint of a local file. A file that cannot be opened or decoded is the
    /// decoder's typed error; a muxer FFmpeg lacks or refuses is `unsupportedFormat`.
    package static func compute(file url: URL) throws(PlaybackError) -> String {
        try FFmpegLibraries.load()
        let decoder = try FFmpegDecoder(measuring: url)
        let channels = decoder.outputChannels
        let muxer = try ChromaprintMuxer(sampleRate: decoder.outputRate, channels: channels)
        let chunk = 4096
        var floats = [Float](repeating: 0, count: chunk * channels)
        var samples = [Int16](repeating: 0, count: chunk * channels)
        var remaining = decoder.outputRate * maximumSeconds
        while remaining > 0 {
            let frames = try floats.withUnsafeMutableBufferPointer { (buffer) throws(PlaybackError) -> Int in
                try decoder.read(into: buffer.baseAddress!, maxFrames: min(chunk, remaining))
            }
            if frames == 0 { break }
            for i in 0..<(frames * channels) { samples[i] = sixteenBit(floats[i]) }
            try samples.withUnsafeBufferPointer { (buffer) throws(PlaybackError) in
                try muxer.feed(UnsafeBufferPointer(rebasing: buffer[0..<(frames * channels)]))
            }
            remaining -= frames
        }
        return try muxer.finish()
    }

    /// A sample as libswresample makes 16 bits of a float (`lrintf(x * 32768)`, clipped), so a
    /// 16-bit file, decoded to floats, comes back exactly as it was stored.
    static func sixteenBit(_ sample: Float) -> Int16 {
        let scaled = (sample * 32768).rounded(.toNearestOrEven)
        guard scaled.isFinite else { return 0 }
        return Int16(max(-32768, min(32767, scaled)))
    }
}

/// FFmpeg's `chromaprint` muxer writing into memory: 16-bit samples in, the fingerprint out
/// when it is finished. Owns its FFmpeg objects and frees them on every path.
final class ChromaprintMuxer {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let channels: Int
    private let sampleRate: Int
    private var framesFed: Int64 = 0

    init(sampleRate: Int, channels: Int) throws(PlaybackError) {
        self.channels = channels
        self.sampleRate = sampleRate
        var made: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&made, nil, "chromaprint", nil) >= 0, let made else {
            throw PlaybackError(.unsupportedFormat, underlying: "FFmpeg here has no chromaprint muxer")
        }
        context = made
        guard avio_open_dyn_buf(&made.pointee.pb) >= 0, let stream = avformat_new_stream(made, nil), let parameters = stream.pointee.codecpar,
            let packet = av_packet_alloc()
        else {
            throw PlaybackError(.unknown, underlying: "chromaprint muxer: out of memory")
        }
        self.packet = packet
        parameters.pointee.codec_type = AVMEDIA_TYPE_AUDIO
        parameters.pointee.codec_id = AV_CODEC_ID_PCM_S16LE
        parameters.pointee.format = AV_SAMPLE_FMT_S16.rawValue
        parameters.pointee.sample_rate = Int32(clamping: sampleRate)
        av_channel_layout_default(&parameters.pointee.ch_layout, Int32(clamping: channels))
        stream.pointee.time_base = AVRational(num: 1, den: Int32(clamping: sampleRate))
        // Its default, said out loud: the compressed fingerprint in base64 is what mpd answers.
        _ = av_opt_set(made.pointee.priv_data, "fp_format", "base64", 0)
        let status = avformat_write_header(made, nil)
        guard status >= 0 else {
            // Chromaprint refuses rates below 1000 Hz and more than two channels.
            throw PlaybackError(.unsupportedFormat, underlying: FFmpegError.describe("chromaprint refused the audio", status))
        }
    }

    deinit {
        av_packet_free(&packet)
        if let context {
            if let io = context.pointee.pb {
                var buffer: UnsafeMutablePointer<UInt8>?
                _ = avio_close_dyn_buf(io, &buffer)
                av_free(buffer)
                context.pointee.pb = nil
            }
            avformat_free_context(context)
        }
    }

    /// Interleaved 16-bit samples, whole frames.
    func feed(_ samples: UnsafeBufferPointer<Int16>) throws(PlaybackError) {
        guard let context, let packet, let base = samples.baseAddress, !samples.isEmpty else { return }
        let bytes = samples.count * MemoryLayout<Int16>.size
        guard av_new_packet(packet, Int32(clamping: bytes)) >= 0 else { throw PlaybackError(.unknown, underlying: "chromaprint muxer: out of memory") }
        defer { av_packet_unref(packet) }
        memcpy(packet.pointee.data, base, bytes)
        packet.pointee.stream_index = 0
        let timeBase = context.pointee.streams[0]!.pointee.time_base
        packet.pointee.pts = av_rescale_q(framesFed, AVRational(num: 1, den: Int32(clamping: sampleRate)), timeBase)
        packet.pointee.dts = packet.pointee.pts
        framesFed += Int64(samples.count / channels)
        let status = av_write_frame(context, packet)
        guard status >= 0 else { throw PlaybackError(.corruptData, underlying: FFmpegError.describe("chromaprint refused samples", status)) }
    }

    /// The fingerprint of everything fed.
    func finish() throws(PlaybackError) -> String {
        guard let context else { throw PlaybackError(.unknown, underlying: "chromaprint muxer already finished") }
        let status = av_write_trailer(context)
        var buffer: UnsafeMutablePointer<UInt8>?
        let size = avio_close_dyn_buf(context.pointee.pb, &buffer)
        context.pointee.pb = nil
        defer { av_free(buffer) }
        guard status >= 0 else { throw PlaybackError(.corruptData, underlying: FFmpegError.describe("chromaprint could not finish", status)) }
        guard let buffer, size > 0 else { throw PlaybackError(.corruptData, underlying: "chromaprint gave no fingerprint") }
        return String(decoding: UnsafeBufferPointer(start: buffer, count: Int(size)), as: UTF8.self)
    }
}
