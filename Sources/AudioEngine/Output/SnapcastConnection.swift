import Foundation
import PlayerCore
import Sockets

#if canImport(Glibc)
    import Glibc
#endif

/// One open path to a Snapcast server's stream source: a non-blocking TCP socket or FIFO.
///
/// Writes wait with `poll` in slices of `pollSlice`, so the writer can be stopped at any moment and
/// a peer that went away is noticed without writing: a TCP peer that closes (`POLLRDHUP`; a stream
/// source never sends anything) or a FIFO whose reader closed (`POLLERR`). Nothing raises SIGPIPE:
/// sockets are written with `MSG_NOSIGNAL`, and the writer thread blocks SIGPIPE for the FIFO
/// (`blockBrokenPipeSignal`), which then fails with EPIPE instead.
final class SnapcastConnection: Sendable {
    /// How long one `poll` waits before the writer looks at its stop flag again.
    static let pollSlice: Int32 = 100
    /// Linux's POLLRDHUP (the peer closed its end), which Swift's Glibc module does not import.
    static let peerHangUp: Int16 = 0x2000

    let endpoint: SnapcastEndpoint
    private let descriptor: Int32

    private init(endpoint: SnapcastEndpoint, descriptor: Int32) {
        self.endpoint = endpoint
        self.descriptor = descriptor
    }

    deinit { Glibc.close(descriptor) }

    /// Connects to the TCP source or opens the FIFO for writing. Nothing there (refused, no such
    /// host, no reader on the FIFO, no answer within `timeout` seconds) -> `audioOutputUnavailable`
    /// naming the address.
    static func open(_ endpoint: SnapcastEndpoint, timeout: Double) throws(PlaybackError) -> SnapcastConnection {
        switch endpoint {
        case .tcp(let host, let port): try connect(host: host, port: port, endpoint: endpoint, timeout: timeout)
        case .pipe(let path): try openFIFO(path: path, endpoint: endpoint)
        }
    }

    private static func unavailable(_ endpoint: SnapcastEndpoint, _ reason: String) -> PlaybackError {
        PlaybackError(.audioOutputUnavailable, underlying: "Snapcast source \(endpoint): \(reason)")
    }

    /// The socket stays non-blocking: `write` waits for room with `poll`.
    private static func connect(host: String, port: Int, endpoint: SnapcastEndpoint, timeout: Double) throws(PlaybackError) -> SnapcastConnection {
        do throws(SocketConnectError) {
            let fd = try SocketConnect.tcp(host: host, port: port, timeout: timeout, blocking: false)
            return SnapcastConnection(endpoint: endpoint, descriptor: fd)
        } catch {
            throw unavailable(endpoint, error.reason)
        }
    }

    private static func openFIFO(path: String, endpoint: SnapcastEndpoint) throws(PlaybackError) -> SnapcastConnection {
        // Non-blocking: with no reader the open fails with ENXIO at once instead of waiting for one.
        let fd = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = errno == ENXIO ? "no reader (is snapserver running with a pipe:// source on it?)" : String(cString: strerror(errno))
            throw unavailable(endpoint, reason)
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else {
            Glibc.close(fd)
            throw unavailable(endpoint, "not a FIFO")
        }
        return SnapcastConnection(endpoint: endpoint, descriptor: fd)
    }

    /// Writes all of `bytes`, waiting for room. Returns nil when written, or why the server is gone:
    /// the peer closed or failed, or took nothing for `stallTimeout` seconds. Returns nil early,
    /// with the rest unwritten, when `stopping` turns true.
    func write(_ bytes: UnsafeRawBufferPointer, stallTimeout: Double, stopping: () -> Bool) -> String? {
        var offset = 0
        var waited = 0.0
        let isSocket: Bool
        if case .tcp = endpoint { isSocket = true } else { isSocket = false }
        let events = Int16(POLLOUT) | (isSocket ? Self.peerHangUp : 0)
        while offset < bytes.count {
            if stopping() { return nil }
            var waiting = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&waiting, 1, Self.pollSlice)
            if ready < 0 {
                if errno == EINTR { continue }
                return "poll: \(String(cString: strerror(errno)))"
            }
            let gone = Int16(POLLERR) | Int16(POLLHUP) | Int16(POLLNVAL) | (isSocket ? Self.peerHangUp : 0)
            if waiting.revents & gone != 0 { return isSocket ? "the server closed the connection" : "the server closed the FIFO" }
            guard waiting.revents & Int16(POLLOUT) != 0 else {
                waited += Double(Self.pollSlice) / 1000
                if waited >= stallTimeout { return "the server took no audio for \(stallTimeout) s" }
                continue
            }
            waited = 0
            let base = bytes.baseAddress! + offset
            let count = bytes.count - offset
            let written = isSocket ? send(descriptor, base, count, Int32(MSG_NOSIGNAL)) : Glibc.write(descriptor, base, count)
            if written < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                if errno == EPIPE { Self.discardBrokenPipeSignal() }
                return String(cString: strerror(errno))
            }
            offset += written
        }
        return nil
    }

    /// Blocks SIGPIPE on the calling thread, so a FIFO write without a reader fails with EPIPE
    /// instead of ending the process.
    static func blockBrokenPipeSignal() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Takes the SIGPIPE a failed FIFO write left pending on this thread (blocked, so harmless).
    private static func discardBrokenPipeSignal() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        var zero = timespec(tv_sec: 0, tv_nsec: 0)
        _ = sigtimedwait(&set, nil, &zero)
    }
}
