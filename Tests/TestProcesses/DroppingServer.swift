import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP server on 127.0.0.1 that accepts every connection and closes it at once, counting the
/// connections: a host that "accepts and drops", the worst case for a client that retries,
/// because each attempt costs a full connect. Binds port 0 and reads the port back.
public final class DroppingServer: @unchecked Sendable {
    public let port: Int
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    private let fd: Int32
    private let lock = NSLock()
    private var _connections = 0
    private var stopped = false

    /// Connections accepted so far.
    public var connections: Int { lock.withLock { _connections } }

    public init() throws {
        (fd, port) = try LoopbackListener.open(backlog: 128)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "DroppingServer"
        thread.start()
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR, !lock.withLock({ stopped }) { continue }
                return
            }
            lock.withLock { _connections += 1 }
            Glibc.close(client)
        }
    }

    /// Stops accepting (wakes the accept loop) and closes the socket.
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
    }
}
