import Foundation
import Media
import PlayerCore
import Synchronization

/// Writes the mix to a named pipe as raw 16-bit little-endian 48 kHz stereo PCM, for visualisers
/// (cava, ncmpcpp's visualiser), the way MPD's fifo output does.
///
/// - `open` creates the FIFO when the path does not exist (and removes it again on `close`); a path
///   that exists but is not a FIFO is refused with `audioOutputUnavailable`.
/// - The sink holds a read end of its own, opened before the write end, both non-blocking: opening
///   never waits for a reader, and a reader that leaves never makes a write fail (no `EPIPE`).
/// - A full pipe (no reader, or one too slow) is emptied through that read end and the block is
///   written again: a visualiser always sees the newest audio, and playback never waits for it.
/// - Samples are converted as `WAVFileSink.pcm16` does: clipped, scaled by 32767, rounded.
/// - As the main output it paces itself in real time (a pipe would otherwise take audio as fast as
///   it is made); beside another output (`TeeSink`) it does not, as the main output paces.
///
/// Driven by one render thread; the descriptors are `Mutex` state.
package final class FifoSink: AudioSink, Sendable {
    package let path: String
    package let isRealtime: Bool
    package var kind: String { "FIFO" }

    /// Paces real-time writes as a device would; nil beside another output.
    private let pacer: NullSink?
    private let state = Mutex(State())

    private struct State {
        var reader: Int32 = -1
        var writer: Int32 = -1
        /// The sink made the FIFO, so it removes it on `close`.
        var created = false
        /// Reused for the 16-bit conversion, so a write allocates nothing.
        var scratch: [Int16] = []
        var totalFrames: Int64 = 0
    }

    /// - Parameters:
    ///   - realtime: pace writes to the clock (the main output) or never wait (beside another).
    ///   - clock: the clock real-time writes are paced by.
    package init(path: String, realtime: Bool, clock: any Clock<Duration> = SystemClock()) {
        self.path = path
        self.isRealtime = realtime
        self.pacer = realtime ? NullSink(realtime: true, clock: clock) : nil
    }

    deinit { close() }

    /// Frames handed to the pipe since the sink was made (some a full pipe dropped).
    package var framesWritten: Int64 { state.withLock { $0.totalFrames } }

    /// Makes the FIFO if it is missing and opens it without waiting for a reader.
    package func open() throws(PlaybackError) {
        try state.withLock { (state) throws(PlaybackError) in
            close(&state)
            var info = stat()
            if stat(path, &info) != 0 {
                guard errno == ENOENT else { throw Self.error("cannot reach FIFO \(path)", errno) }
                guard mkfifo(path, 0o666) == 0 else { throw Self.error("cannot create FIFO \(path)", errno) }
                state.created = true
            } else if info.st_mode & S_IFMT != S_IFIFO {
                throw PlaybackError(.audioOutputUnavailable, underlying: "\(path) exists and is not a FIFO")
            }
            state.reader = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            if state.reader >= 0 { state.writer = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC) }
            guard state.reader >= 0, state.writer >= 0 else {
                let code = errno
                close(&state)
                throw Self.error("cannot open FIFO \(path)", code)
            }
        }
        try pacer?.open()
    }

    package func write(_ samples: UnsafePointer<Float>, frames: Int) throws(PlaybackError) {
        guard frames > 0 else { return }
        try state.withLock { (state) throws(PlaybackError) in
            guard state.writer >= 0 else { throw PlaybackError(.audioOutputUnavailable, underlying: "FIFO sink is not open") }
            let count = frames * AudioFormat.channelCount
            if state.scratch.count < count { state.scratch = [Int16](repeating: 0, count: count) }
            for i in 0..<count { state.scratch[i] = WAVFileSink.pcm16(samples[i]).littleEndian }
            let (reader, writer) = (state.reader, state.writer)
            let failure = state.scratch.withUnsafeBytes {
                Self.push(UnsafeRawBufferPointer(rebasing: $0.prefix(count * 2)), reader: reader, writer: writer)
            }
            if let failure { throw Self.error("cannot write FIFO \(path)", failure) }
            state.totalFrames += Int64(frames)
        }
        try pacer?.write(samples, frames: frames)
    }

    /// In real time, waits until the last frame would have been heard; a pipe has nothing to flush.
    package func drain() throws(PlaybackError) {
        try pacer?.drain()
    }

    package func close() {
        state.withLock { close(&$0) }
        pacer?.close()
    }

    /// A pipe has no device to lose.
    package func takeRouteChange() -> RouteChange? { nil }

    // MARK: - Private

    /// Writes all of `bytes`, emptying the pipe whenever it is full (MPD's rule: the newest audio
    /// wins); the errno of a write that failed otherwise.
    private static func push(_ bytes: UnsafeRawBufferPointer, reader: Int32, writer: Int32) -> Int32? {
        var offset = 0
        var emptied = 0
        while offset < bytes.count {
            let written = Glibc.write(writer, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
                continue
            }
            let code = errno
            if written < 0 && code == EINTR { continue }
            guard written < 0, code == EAGAIN || code == EWOULDBLOCK else { return code }
            // Full: drop what no one read. Twice in one block means a pipe smaller than a block.
            guard emptied < 2 else { return nil }
            emptied += 1
            empty(reader)
        }
        return nil
    }

    private static func empty(_ reader: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let got = buffer.withUnsafeMutableBytes { Glibc.read(reader, $0.baseAddress!, $0.count) }
            if got > 0 { continue }
            if got < 0 && errno == EINTR { continue }
            return
        }
    }

    private func close(_ state: inout State) {
        if state.writer >= 0 { Glibc.close(state.writer) }
        if state.reader >= 0 { Glibc.close(state.reader) }
        state.writer = -1
        state.reader = -1
        if state.created { unlink(path) }
        state.created = false
    }

    private static func error(_ what: String, _ code: Int32) -> PlaybackError {
        let underlying = "\(what): \(String(cString: strerror(code)))"
        return switch code {
        case ENOENT, ENOTDIR: PlaybackError(.audioOutputUnavailable, underlying: underlying)
        default: PlaybackError.from(errno: code, underlying: underlying)
        }
    }
}
