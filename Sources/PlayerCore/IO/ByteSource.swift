/// Bytes that arrive over time, such as an HTTP stream after ICY metadata is removed; the decoder
/// reads them through FFmpeg's custom I/O.
public protocol ByteSource: AnyObject, Sendable {
    /// Blocks until at least one byte is available, then copies up to `buffer.count` bytes and
    /// returns how many; 0 means the end of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlaybackError) -> Int
    /// Wakes a blocked `read` so the decoder can be torn down.
    func close()
}
