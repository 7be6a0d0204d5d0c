import CFFmpeg

/// Owns the FFmpeg objects of one opened input, so each is freed exactly once on every path, also
/// when opening throws halfway through.
///
/// One owner rather than one per object because their order matters: the format context must let
/// go of a custom I/O context it does not own before both are freed, and the bridge behind that
/// context's callbacks must outlive it. (The resampler's context is its own: `FFmpegResampler`.)
final class FFmpegHandles {
    var format: UnsafeMutablePointer<AVFormatContext>?
    var codec: UnsafeMutablePointer<AVCodecContext>?
    var packet: UnsafeMutablePointer<AVPacket>?
    var frame: UnsafeMutablePointer<AVFrame>?
    /// The custom I/O context; `avformat_close_input` does not free it.
    var io: UnsafeMutablePointer<AVIOContext>?
    /// The opaque object behind `io`'s callback; kept alive as long as `io`.
    var bridge: ByteSourceBridge?

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        if let format, io != nil {
            format.pointee.pb = nil  // ours, not the format context's
        }
        avformat_close_input(&format)
        freeIOContext(&io)
    }
}
