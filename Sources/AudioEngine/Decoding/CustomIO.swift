import CFFmpeg
import PlayerCore

/// Feeds a `ByteSource` to FFmpeg through a custom `AVIOContext` (read-only, not seekable).
///
/// FFmpeg's read callback can only return an `int`, so a typed `PlaybackError` from the source
/// cannot travel through libavformat. The bridge keeps it in `error` and answers FFmpeg with
/// `AVERROR_EXIT`; the decoder checks `error` whenever an FFmpeg call fails and throws the
/// source's own error instead of a generic one. Both the error and the end are sticky: once the
/// source failed or ended, it is never called again (a retrying demuxer must not block on it).
final class ByteSourceBridge {
    let source: any ByteSource
    /// The source's first error; later FFmpeg failures are consequences of it.
    private(set) var error: PlaybackError?
    private(set) var reachedEnd = false
    /// Bytes handed to FFmpeg so far (an empty source that fails to open ends cleanly).
    private(set) var bytesDelivered = 0

    init(source: any ByteSource) {
        self.source = source
    }

    /// The body of FFmpeg's `read_packet` callback: bytes read, `AVERROR_EOF` or `AVERROR_EXIT`.
    func fill(_ buffer: UnsafeMutablePointer<UInt8>, capacity: Int32) -> Int32 {
        if error != nil { return FFmpegError.exit }
        if reachedEnd { return FFmpegError.endOfFile }
        let raw = UnsafeMutableRawBufferPointer(start: buffer, count: Int(capacity))
        do {
            let count = try source.read(into: raw)
            guard count > 0 else {
                reachedEnd = true
                return FFmpegError.endOfFile
            }
            let delivered = min(count, Int(capacity))
            bytesDelivered += delivered
            return Int32(delivered)
        } catch {
            self.error = error
            return FFmpegError.exit
        }
    }

    /// Allocates the `AVIOContext` that calls `fill` with `self` as its opaque pointer. The caller
    /// keeps the bridge alive for as long as the context exists and frees the context (and its
    /// buffer, which FFmpeg may have reallocated) with `freeIOContext`.
    func makeIOContext(bufferSize: Int) -> UnsafeMutablePointer<AVIOContext>? {
        guard let buffer = av_malloc(bufferSize) else { return nil }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        let context = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), Int32(bufferSize), 0, opaque,
            { opaque, buffer, size in
                guard let opaque, let buffer, size > 0 else { return FFmpegError.endOfFile }
                return Unmanaged<ByteSourceBridge>.fromOpaque(opaque).takeUnretainedValue()
                    .fill(buffer, capacity: size)
            },
            nil, nil)
        guard let context else {
            av_free(buffer)
            return nil
        }
        context.pointee.seekable = 0
        return context
    }
}

/// Frees a context made by `ByteSourceBridge.makeIOContext`: its current buffer, then itself.
func freeIOContext(_ context: inout UnsafeMutablePointer<AVIOContext>?) {
    guard let io = context else { return }
    av_free(io.pointee.buffer)
    io.pointee.buffer = nil
    avio_context_free(&context)
}
