/// Bytes that arrive over time, such as an HTTP stream after ICY metadata is removed; the decoder
/// reads them through FFmpeg's custom I/O.
package protocol ByteSource: AnyObject, Sendable {
    /// Blocks until at least one byte is available, then copies up to `buffer.count` bytes and
    /// returns how many; 0 means the end of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlaybackError) -> Int
    /// Wakes a blocked `read` so the decoder can be torn down.
    func close()
}

/// A `ByteSource` with a beginning and (usually) an end, such as an episode behind an HTTP server
/// that honours `Range`: the decoder can jump to a byte, so an episode can seek, start at a saved
/// position and resume exactly where a dropped connection left it.
///
/// `seek(to:)` should be cheap (record the offset; fetch on the next `read`): demuxers seek while
/// they probe, often to where they already are, and each real reposition may cost a request.
package protocol SeekableByteSource: ByteSource {
    /// Total length in bytes once known (from `Content-Length` or `Content-Range`); nil before
    /// the first response or when the server does not say.
    var size: Int64? { get }
    /// Moves the read position: the next `read` returns bytes from `offset` on. An offset at or
    /// past the end makes the next `read` return 0.
    func seek(to offset: Int64) throws(PlaybackError)
}
