import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A fault-injecting TCP proxy for tests: listens on 127.0.0.1 and a free port and forwards each
/// accepted connection to `upstreamHost:upstreamPort` (an IPv4 address), both ways.
///
/// Plain POSIX sockets and threads: one accept thread, one thread per connection that polls both
/// sockets every 20 ms, so a change of `mode` reaches live connections within that time (`.cut` and
/// `stop()` shut the sockets down at once). Sends use `MSG_NOSIGNAL` (no SIGPIPE). Each socket is
/// closed by the thread that owns it; `stop()` waits for every thread to end (no leaked fds).
///
/// The mode acts on the downstream direction (server to client); requests from the client are
/// always forwarded. The proxy parses the first HTTP response head of each connection (which every
/// mode but `.stall`/`.trickle` forwards intact) and, when it carries `icy-metaint: N`, follows the
/// ICY structure of the body (N audio bytes, a length byte L, 16 x L metadata bytes, ...).
///
/// Not a general HTTP proxy: only the first response of a keep-alive connection is parsed.
/// The threads keep the proxy alive: call `stop()`.
package final class FaultProxy: @unchecked Sendable {
    /// What the proxy does to the connections.
    package enum Mode: Sendable, Equatable {
        /// Forward everything.
        case pass
        /// Close every current connection at once; while the mode stays `.cut`, new connections are
        /// accepted and closed at once too.
        case cut
        /// Keep the sockets open and forward nothing downstream (upstream bytes are left unread).
        case stall
        /// Forward downstream at most this many bytes per second (bursts of at most 1/20 s worth).
        case trickle(bytesPerSecond: Int)
        /// Invert every n-th body byte downstream (after the response head, which stays intact).
        case corrupt(everyNthByte: Int)
        /// Close the connection right after the length byte of the next non-empty ICY metadata block
        /// and 3 bytes of the block (the client sees a cut inside the block). Needs `icy-metaint`
        /// in the response; empty blocks (length byte 0) are passed and the next one is waited for.
        case closeInsideMetadataBlock
        /// Close newly accepted connections immediately (existing ones are left alone).
        case refuse
    }

    /// A socket call that failed while setting up the proxy.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The port the proxy listens on (127.0.0.1).
    package let port: Int
    package let upstreamHost: String
    package let upstreamPort: Int
    package var baseURL: String { "http://127.0.0.1:\(port)" }
    /// `path` on the proxy, e.g. `/live.mp3`.
    package func url(_ path: String) -> URL { URL(string: baseURL + path)! }

    private let listener: Int32
    private let threads = DispatchGroup()
    private let lock = NSLock()
    private var _mode: Mode
    private var stopped = false
    private var nextID = 0
    /// Live connections: id -> (client fd, upstream fd or -1). Only their threads close them.
    private var live: [Int: (client: Int32, upstream: Int32)] = [:]
    private var _connectionCount = 0
    private var _listening = true
    private var _bytesDownstream = 0

    /// Starts listening at once. `upstreamHost` must be an IPv4 address.
    package init(upstreamHost: String = "127.0.0.1", upstreamPort: Int, mode: Mode = .pass) throws {
        self.upstreamHost = upstreamHost
        self.upstreamPort = upstreamPort
        _mode = mode
        let (fd, port) = try LoopbackListener.open(backlog: 64)
        self.port = port
        listener = fd
        threads.enter()
        Thread.detachNewThread { [self] in
            acceptLoop()
            threads.leave()
        }
    }

    // MARK: - Control and counters

    /// The current mode; setting it affects live connections within about 20 ms (`.cut` at once).
    package var mode: Mode {
        get { lock.withLock { _mode } }
        set {
            lock.withLock {
                _mode = newValue
                if newValue == .cut { shutdownAllLocked() }
            }
        }
    }

    /// Connections accepted so far (including refused and cut ones).
    package var connectionCount: Int { lock.withLock { _connectionCount } }
    /// Whether the listening socket is still open (false once `stop()` has closed it).
    package var isListening: Bool { lock.withLock { _listening } }
    /// Connections open right now.
    package var openConnectionCount: Int { lock.withLock { live.count } }
    /// Bytes sent to clients so far, all connections, heads included.
    package var bytesForwardedDownstream: Int { lock.withLock { _bytesDownstream } }

    /// Closes the listener and every connection and waits (up to 5 s) for all threads. Idempotent.
    package func stop() {
        let first: Bool = lock.withLock {
            guard !stopped else { return false }
            stopped = true
            shutdownAllLocked()
            return true
        }
        if first { _ = threads.wait(timeout: .now() + 5) }
    }

    /// Shuts down (does not close) every live socket: their threads see the error and close them.
    private func shutdownAllLocked() {
        for (client, upstream) in live.values {
            shutdown(client, Int32(SHUT_RDWR))
            if upstream >= 0 { shutdown(upstream, Int32(SHUT_RDWR)) }
        }
    }

    // MARK: - Threads

    private func acceptLoop() {
        defer {
            Glibc.close(listener)
            lock.withLock { _listening = false }
        }
        while !lock.withLock({ stopped }) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)  // a child spawned meanwhile must not inherit it
            let id: Int? = lock.withLock {
                _connectionCount += 1
                if stopped || _mode == .refuse || _mode == .cut { return nil }
                nextID += 1
                live[nextID] = (client, -1)
                return nextID
            }
            guard let id else {
                Glibc.close(client)
                continue
            }
            threads.enter()
            Thread.detachNewThread { [self] in
                serve(id: id, client: client)
                threads.leave()
            }
        }
    }

    private func serve(id: Int, client: Int32) {
        var upstream: Int32 = -1
        defer {
            lock.withLock {
                live[id] = nil
                Glibc.close(client)
                if upstream >= 0 { Glibc.close(upstream) }
            }
        }
        guard let connected = connectUpstream() else { return }
        let proceed: Bool = lock.withLock {
            upstream = connected
            guard !stopped, _mode != .cut else { return false }
            live[id] = (client, connected)
            return true
        }
        guard proceed else { return }
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(upstream, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        var stream = DownstreamParser()
        var buffer = [UInt8](repeating: 0, count: 16384)
        var tokens = 0.0
        var lastRefill = DispatchTime.now().uptimeNanoseconds
        while true {
            let (mode, stop) = lock.withLock { (_mode, stopped) }
            if stop || mode == .cut || live[id] == nil { return }
            // How much may be read from upstream now (nil: do not read).
            var allowance: Int? = buffer.count
            switch mode {
            case .stall: allowance = nil
            case .trickle(let rate):
                let now = DispatchTime.now().uptimeNanoseconds
                let burst = max(1.0, Double(rate) / 20)
                tokens = min(burst, tokens + Double(rate) * Double(now - lastRefill) / 1e9)
                lastRefill = now
                allowance = tokens >= 1 ? min(buffer.count, Int(tokens)) : nil
            default: break
            }
            var fds = [
                pollfd(fd: client, events: Int16(POLLIN), revents: 0),
                pollfd(fd: allowance == nil ? -1 : upstream, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&fds, 2, 20) >= 0 || errno == EINTR else { return }
            if fds[0].revents != 0 {
                let got = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                if got <= 0 { return }
                guard sendAll(upstream, buffer[0..<got], id: id) else { return }
            }
            if let allowance, fds[1].revents != 0 {
                let got = buffer.withUnsafeMutableBytes { recv(upstream, $0.baseAddress, allowance, 0) }
                if got <= 0 { return }
                if case .trickle = mode { tokens -= Double(got) }
                let (output, close) = stream.process(buffer[0..<got], mode: mode)
                guard sendAll(client, output[...], id: id) else { return }
                lock.withLock { _bytesDownstream += output.count }
                if close { return }
            }
        }
    }

    /// Sends everything, retrying after the 50 ms send timeout while the connection is wanted.
    private func sendAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>, id: Int) -> Bool {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                if lock.withLock({ stopped || _mode == .cut || live[id] == nil }) { return false }
            } else {
                return false
            }
        }
        return true
    }

    private func connectUpstream() -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(upstreamHost)
        address.sin_port = in_port_t(UInt16(upstreamPort).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            return nil
        }
        return fd
    }
}

/// Follows one connection's downstream bytes: the response head, then the body's ICY structure;
/// applies the byte-level faults (`corrupt`, `closeInsideMetadataBlock`).
struct DownstreamParser {
    private enum Icy {
        case audio(remaining: Int)
        case lengthByte
        case metadata(remaining: Int)
    }

    private static let headLimit = 64 * 1024
    private var head: [UInt8] = []
    private var headDone = false
    private var metaInterval: Int?
    private var icy = Icy.audio(remaining: 0)
    private var bodyIndex = 0
    /// Bytes still to send before closing inside a metadata block.
    private var cutAfter: Int?

    /// The bytes to send for `chunk`, and whether to close the connection after sending them.
    mutating func process(_ chunk: ArraySlice<UInt8>, mode: FaultProxy.Mode) -> (output: [UInt8], close: Bool) {
        var output: [UInt8] = []
        output.reserveCapacity(chunk.count)
        for byte in chunk {
            if !headDone {
                output.append(byte)
                head.append(byte)
                if head.count >= 4, head[(head.count - 4)...].elementsEqual([13, 10, 13, 10]) || head.count > Self.headLimit {
                    headDone = true
                    metaInterval = Self.metaInterval(in: head)
                    icy = .audio(remaining: metaInterval ?? Int.max)
                }
                continue
            }
            bodyIndex += 1
            var sent = byte
            if case .corrupt(let every) = mode, every > 0, bodyIndex % every == 0 { sent = ~byte }
            output.append(sent)
            if let remaining = cutAfter {
                if remaining <= 1 { return (output, true) }
                cutAfter = remaining - 1
            }
            guard let metaInterval else { continue }
            switch icy {
            case .audio(let remaining):
                icy = remaining <= 1 ? .lengthByte : .audio(remaining: remaining - 1)
            case .lengthByte:
                let length = Int(byte) * 16
                icy = length == 0 ? .audio(remaining: metaInterval) : .metadata(remaining: length)
                if length > 0, mode == .closeInsideMetadataBlock, cutAfter == nil {
                    cutAfter = min(3, length - 1)
                    if cutAfter == 0 { return (output, true) }
                }
            case .metadata(let remaining):
                icy = remaining <= 1 ? .audio(remaining: metaInterval) : .metadata(remaining: remaining - 1)
            }
        }
        return (output, false)
    }

    /// `icy-metaint` from a response head, when present and positive.
    static func metaInterval(in head: [UInt8]) -> Int? {
        let text = String(decoding: head, as: UTF8.self)
        for line in text.split(separator: "\r\n") where line.lowercased().hasPrefix("icy-metaint:") {
            if let value = Int(line.dropFirst("icy-metaint:".count).trimmingCharacters(in: .whitespaces)), value > 0 {
                return value
            }
        }
        return nil
    }
}
