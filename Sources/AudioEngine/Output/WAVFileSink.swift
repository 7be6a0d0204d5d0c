import Foundation
import Media
import PlayerCore
import Synchronization

/// Writes the mix to a RIFF/WAVE file: 48 kHz stereo, either 16-bit PCM (`WAVE_FORMAT_PCM`) or
/// 32-bit float (`WAVE_FORMAT_IEEE_FLOAT`, with the `fact` chunk that format requires).
///
/// - `open` creates or truncates the file and writes a header with zero sizes; `close` patches the
///   RIFF and data sizes (and the `fact` frame count), so a file whose writer crashed still has a
///   readable header with sizes 0.
/// - 16-bit conversion clips to [-1, 1], scales by 32767 and rounds to nearest (so -1.0 becomes
///   -32767); no dither is applied. NaN becomes 0.
/// - Writes go through a 256 KiB stdio buffer; `drain` flushes it to the kernel.
/// - WAV sizes are 32-bit: a write that would take the RIFF size past 4 GiB - 1 is refused with
///   `unsupportedFormat` (nothing of that write is written) rather than producing a corrupt
///   header; the file stays valid up to the frames already written (about 6.2 hours of 16-bit
///   or 3.1 hours of float audio).
/// - File errors map to typed codes: a missing directory -> `fileNotFound`, no permission or a
///   read-only file system -> `permissionDenied`, anything else from errno.
///
/// Driven by one render thread; the open file is guarded by a `Mutex` so other threads may read
/// `framesWritten`.
package final class WAVFileSink: AudioSink, Sendable {
    /// How samples are stored.
    package enum Encoding: Sendable, Equatable {
        /// Signed 16-bit little-endian integers, format tag 1.
        case pcm16
        /// IEEE 754 32-bit little-endian floats, format tag 3.
        case float32

        var bytesPerSample: Int { self == .pcm16 ? 2 : 4 }
        var formatTag: UInt16 { self == .pcm16 ? 1 : 3 }
        /// Bytes before the sample data.
        var headerSize: Int { self == .pcm16 ? 44 : 58 }
    }

    /// The largest data chunk a WAV file can describe: the RIFF size (file size - 8) is 32-bit.
    package static func maxDataBytes(for encoding: Encoding) -> Int64 {
        Int64(UInt32.max) - Int64(encoding.headerSize - 8)
    }

    package let path: String
    package let encoding: Encoding
    package var kind: String { "WAV file" }
    package var isRealtime: Bool { false }

    private let dataLimit: Int64
    private let state = Mutex(State())

    /// The file being written and how much of it is sample data.
    /// `@unchecked Sendable`: a C `FILE` pointer is not `Sendable`; this state is reached only
    /// through the `Mutex`, one thread at a time.
    private struct State: @unchecked Sendable {
        var file: UnsafeMutablePointer<FILE>?
        var dataBytes: Int64 = 0
        var totalFrames: Int64 = 0
        /// Reused for the 16-bit conversion, so a write allocates nothing.
        var scratch: [UInt8] = []
    }

    package convenience init(path: String, encoding: Encoding) {
        self.init(path: path, encoding: encoding, maxDataBytes: Self.maxDataBytes(for: encoding))
    }

    /// `maxDataBytes` lowers the size limit (tests use it to check the refusal without writing 4 GiB).
    init(path: String, encoding: Encoding, maxDataBytes: Int64) {
        self.path = path
        self.encoding = encoding
        self.dataLimit = min(maxDataBytes, Self.maxDataBytes(for: encoding))
    }

    deinit { close() }

    /// Frames written to the current file (reset by `open`).
    package var framesWritten: Int64 { state.withLock { $0.totalFrames } }

    /// Creates (or truncates) the file and writes a provisional header.
    package func open() throws(PlaybackError) {
        try state.withLock { (state) throws(PlaybackError) in
            if state.file != nil { close(&state) }
            guard let handle = fopen(path, "wb") else {
                let code = errno
                throw PlaybackError.from(errno: code, underlying: "cannot create WAV file: \(String(cString: strerror(code)))")
            }
            setvbuf(handle, nil, _IOFBF, 256 * 1024)
            state = State(file: handle)
            do throws(PlaybackError) {
                try writeBytes(header(dataBytes: 0, frames: 0), to: handle)
            } catch {
                fclose(handle)
                state.file = nil
                throw error
            }
        }
    }

    package func write(_ samples: UnsafePointer<Float>, frames: Int) throws(PlaybackError) {
        guard frames > 0 else { return }
        try state.withLock { (state) throws(PlaybackError) in try write(samples, frames: frames, into: &state) }
    }

    private func write(_ samples: UnsafePointer<Float>, frames: Int, into state: inout State) throws(PlaybackError) {
        guard let handle = state.file else {
            throw PlaybackError(.audioOutputUnavailable, underlying: "WAV file sink is not open")
        }
        let count = frames * AudioFormat.channelCount
        let bytes = count * encoding.bytesPerSample
        guard state.dataBytes + Int64(bytes) <= dataLimit else {
            throw PlaybackError(
                .unsupportedFormat,
                underlying: "WAV files are limited to 4 GiB; \(state.totalFrames) frames were written")
        }
        switch encoding {
        case .float32:
            // Floats are stored as they are (little-endian on every platform Tonearm runs on).
            try writeRaw(UnsafeRawPointer(samples), count: bytes, to: handle)
        case .pcm16:
            if state.scratch.count < bytes { state.scratch = [UInt8](repeating: 0, count: bytes) }
            state.scratch.withUnsafeMutableBytes { raw in
                let out = raw.bindMemory(to: Int16.self)
                for i in 0..<count { out[i] = Self.pcm16(samples[i]).littleEndian }
            }
            let written = state.scratch.withUnsafeBytes { fwrite($0.baseAddress!, 1, bytes, handle) }
            if written != bytes { throw Self.ioError(errno) }
        }
        state.dataBytes += Int64(bytes)
        state.totalFrames += Int64(frames)
    }

    /// Flushes buffered samples to the file.
    package func drain() throws(PlaybackError) {
        try state.withLock { (state) throws(PlaybackError) in
            guard let handle = state.file else { return }
            if fflush(handle) != 0 { throw Self.ioError(errno) }
        }
    }

    /// Patches the header's sizes and closes the file. Errors here cannot be reported (the
    /// protocol's `close` does not throw); call `drain` first to see write errors.
    package func close() {
        state.withLock { close(&$0) }
    }

    /// A file has no device to lose.
    package func takeRouteChange() -> RouteChange? { nil }

    /// Float -> Int16: clip, scale by 32767, round to nearest; no dither.
    static func pcm16(_ sample: Float) -> Int16 {
        guard !sample.isNaN else { return 0 }
        let clipped = min(max(sample, -1), 1)
        return Int16((clipped * 32767).rounded())
    }

    // MARK: - Private

    private func close(_ state: inout State) {
        guard let handle = state.file else { return }
        state.file = nil
        fflush(handle)
        if fseek(handle, 0, SEEK_SET) == 0 {
            try? writeBytes(header(dataBytes: state.dataBytes, frames: state.totalFrames), to: handle)
        }
        fclose(handle)
    }

    private func header(dataBytes: Int64, frames: Int64) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(encoding.headerSize)
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func tag(_ s: String) { out.append(contentsOf: Array(s.utf8)) }
        let channels = UInt16(AudioFormat.channelCount)
        let rate = UInt32(AudioFormat.sampleRate)
        let blockAlign = UInt16(AudioFormat.channelCount * encoding.bytesPerSample)
        tag("RIFF")
        u32(UInt32(Int64(encoding.headerSize - 8) + dataBytes))
        tag("WAVE")
        tag("fmt ")
        u32(encoding == .pcm16 ? 16 : 18)
        u16(encoding.formatTag)
        u16(channels)
        u32(rate)
        u32(rate * UInt32(blockAlign))
        u16(blockAlign)
        u16(UInt16(encoding.bytesPerSample * 8))
        if encoding == .float32 {
            u16(0)  // cbSize: no extension
            tag("fact")
            u32(4)
            u32(UInt32(truncatingIfNeeded: frames))
        }
        tag("data")
        u32(UInt32(dataBytes))
        return out
    }

    private func writeBytes(_ bytes: [UInt8], to handle: UnsafeMutablePointer<FILE>) throws(PlaybackError) {
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress!, 1, $0.count, handle) }
        if written != bytes.count { throw Self.ioError(errno) }
    }

    private func writeRaw(_ pointer: UnsafeRawPointer, count: Int, to handle: UnsafeMutablePointer<FILE>) throws(PlaybackError) {
        if fwrite(pointer, 1, count, handle) != count { throw Self.ioError(errno) }
    }

    private static func ioError(_ code: Int32) -> PlaybackError {
        PlaybackError.from(errno: code, underlying: "cannot write WAV file: \(String(cString: strerror(code)))")
    }
}
