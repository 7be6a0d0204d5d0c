#if canImport(Glibc)
    import Glibc
#endif

/// One blocking socket connect, TCP or Unix, for the few places that talk over a plain socket
/// from a thread of their own: the Snapcast output's writer and the Snapcast control script's MPD
/// client.
///
/// Hand-written rather than SwiftNIO: NIO's bootstraps hand back a channel on an event loop, and
/// these callers are plain threads that write and read with blocking or polled system calls on
/// a descriptor they own. Every descriptor is close-on-exec (a child process such as a hook
/// never inherits it), and every failure path closes the descriptors it made.
package enum SocketConnect {
    /// Connects to `host`:`port`, trying each address the resolver gives in turn; the first that
    /// answers wins. The connect itself is non-blocking and waits with `poll` for at most
    /// `timeout` seconds an address: that is a real connect timeout, which `SO_SNDTIMEO` is not
    /// for every case on Linux. The descriptor is made blocking again when `blocking` is true;
    /// otherwise it stays non-blocking for a caller that polls its writes.
    package static func tcp(host: String, port: Int, timeout: Double, blocking: Bool) throws(SocketConnectError) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            if let list { freeaddrinfo(list) }
            throw SocketConnectError(.resolve, resolved == 0 ? "no address" : String(cString: gai_strerror(resolved)))
        }
        defer { freeaddrinfo(first) }
        var failure = SocketConnectError(.connect, "no address")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            do throws(SocketConnectError) {
                return try connect(info.pointee, timeout: timeout, blocking: blocking)
            } catch {
                failure = error
            }
        }
        throw failure
    }

    /// Connects to the Unix stream socket at `path`; the descriptor is blocking. A path longer
    /// than `sockaddr_un` holds fails before any socket is made. No timeout: a local connect
    /// fails at once when nothing listens, and waits only while the listener's queue is full.
    package static func unix(path: String) throws(SocketConnectError) -> Int32 {
        var name = sockaddr_un()
        name.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        // Room for the terminating zero too.
        guard bytes.count < MemoryLayout.size(ofValue: name.sun_path) else {
            throw SocketConnectError(.path, "socket path too long")
        }
        withUnsafeMutableBytes(of: &name.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketConnectError(.socket, systemReason(errno)) }
        while true {
            let connected = withUnsafePointer(to: &name) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if connected == 0 { return fd }
            let error = errno
            // A Unix connect waits only while the listener's queue is full; a signal there leaves
            // the socket unconnected, so it is tried again.
            if error == EINTR { continue }
            Glibc.close(fd)
            throw SocketConnectError(.connect, systemReason(error))
        }
    }

    /// One address: a non-blocking socket, connect, `poll` for writability, then `SO_ERROR`.
    private static func connect(_ info: addrinfo, timeout: Double, blocking: Bool) throws(SocketConnectError) -> Int32 {
        let fd = socket(info.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SocketConnectError(.socket, systemReason(errno)) }
        do throws(SocketConnectError) {
            try establish(fd, info, timeout: timeout)
            if blocking {
                let flags = fcntl(fd, F_GETFL)
                guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else { throw SocketConnectError(.socket, systemReason(errno)) }
            }
            return fd
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    private static func establish(_ fd: Int32, _ info: addrinfo, timeout: Double) throws(SocketConnectError) {
        if Glibc.connect(fd, info.ai_addr, info.ai_addrlen) == 0 { return }
        // EINTR: the connect goes on in the background as it does after EINPROGRESS.
        guard errno == EINPROGRESS || errno == EINTR else { throw SocketConnectError(.connect, systemReason(errno)) }
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
        while true {
            // Rounded up to whole milliseconds, so the wait is never shorter than `timeout`.
            let left = ContinuousClock.now.duration(to: deadline)
            let milliseconds = max(0, left.components.seconds * 1000 + (left.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            var waiting = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&waiting, 1, Int32(clamping: milliseconds))
            if ready < 0 {
                if errno == EINTR { continue }
                throw SocketConnectError(.connect, systemReason(errno))
            }
            if ready > 0 { break }
            // A poll may wake a little before the deadline the clock reads; it waits the rest.
            if ContinuousClock.now < deadline { continue }
            throw SocketConnectError(.connect, "no answer within \(timeout) s")
        }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { throw SocketConnectError(.connect, systemReason(errno)) }
        guard error == 0 else { throw SocketConnectError(.connect, systemReason(error)) }
    }

    private static func systemReason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
