import CFFmpeg
import PlayerCore

#if canImport(Glibc)
    import Glibc
#endif

/// Feeds a `ByteSource` to FFmpeg through a custom `AVIOContext`: read-only, and seekable when the
/// source is a `SeekableByteSource` (FFmpeg's seek callback is installed and `seekable` set).
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
    /// The source's byte offset of the next `fill` (what FFmpeg's `SEEK_CUR` is relative to).
    private(set) var position: Int64 = 0
    /// Whether a seek callback answers `AVSEEK_SIZE`. The decoder hides the size while some
    /// demuxers open, so they skip reads of trailing tags that would cost a request each.
    var revealsSize = true

    init(source: any ByteSource) {
        self.source = source
    }

    /// The source, when FFmpeg may seek it.
    var seekableSource: (any SeekableByteSource)? { source as? any SeekableByteSource }

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
            position += Int64(delivered)
            return Int32(delivered)
        } catch {
            self.error = error
            return FFmpegError.exit
        }
    }

    /// The body of FFmpeg's `seek` callback: the new offset, the size for `AVSEEK_SIZE` (-1 when
    /// unknown), or a negative `AVERROR`. avio itself only ever asks for `SEEK_SET` and
    /// `AVSEEK_SIZE`; `SEEK_CUR` and `SEEK_END` are answered too, as the callback's contract says.
    /// A seek clears the end (seeking back from the end is normal); an error stays sticky.
    func seek(offset: Int64, whence: Int32) -> Int64 {
        guard let source = seekableSource else { return Int64(FFmpegError.unsupported) }
        let mode = whence & ~Int32(AVSEEK_FORCE)
        if mode == Int32(AVSEEK_SIZE) {
            guard revealsSize, let size = source.size else { return -1 }
            return size
        }
        if error != nil { return Int64(FFmpegError.exit) }
        let target: Int64
        switch mode {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END:
            // avio_size falls back to SEEK_END: a hidden size stays hidden.
            guard revealsSize, let size = source.size else { return Int64(FFmpegError.unsupported) }
            target = size + offset
        default: return Int64(FFmpegError.unsupported)
        }
        guard target >= 0 else { return Int64(FFmpegError.invalidArgument) }
        do {
            try source.seek(to: target)
        } catch {
            self.error = error
            return Int64(FFmpegError.exit)
        }
        position = target
        reachedEnd = false
        return target
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
            nil,
            seekableSource == nil
                ? nil
                : { opaque, offset, whence in
                    guard let opaque else { return Int64(FFmpegError.unsupported) }
                    return Unmanaged<ByteSourceBridge>.fromOpaque(opaque).takeUnretainedValue()
                        .seek(offset: offset, whence: whence)
                })
        guard let context else {
            av_free(buffer)
            return nil
        }
        context.pointee.seekable = seekableSource == nil ? 0 : AVIO_SEEKABLE_NORMAL
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
