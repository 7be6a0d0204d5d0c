import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A listening TCP socket on 127.0.0.1, for the hand-written servers of the tests (the fault
/// proxy, raw answers NIO would not send). One place for the POSIX boilerplate.
///
/// Every socket is created close-on-exec: a child the tests spawn meanwhile (tmux, PulseAudio,
/// Icecast, ffmpeg) must not inherit it, or a connection the test closes would stay open in the
/// child and its peer would never see the end.
package enum LoopbackListener {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Binds 127.0.0.1 on `port` (0: a free one, chosen by the kernel) and listens with `backlog`
    /// (0: bind only). Returns the descriptor, which the caller owns and closes, and the port.
    package static func open(backlog: Int32, port requested: Int = 0) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(requested).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, backlog == 0 || listen(fd, backlog) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw Failure(description: "bind/listen on 127.0.0.1:\(requested): \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw Failure(description: "getsockname: \(reason)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// A loopback port held for one test: bound (with `SO_REUSEADDR`) but not listening.
///
/// While it is held, connecting to the port is refused, and no other socket of this machine can be
/// given the port by the kernel, so "nothing listens here" stays true for the whole test instead of
/// until another test happens to bind the same number. A server the test starts itself with
/// `SO_REUSEADDR` (Icecast does) can still listen on it: the reservation keeps the number for that
/// server across its restarts.
package final class PortReservation: Sendable {
    package let port: Int
    private let descriptor: Mutex<Int32?>

    package init() throws {
        let (fd, port) = try LoopbackListener.open(backlog: 0)
        self.port = port
        descriptor = Mutex(fd)
    }

    deinit { release() }

    /// Gives the port back. Idempotent: the descriptor is closed once, by its owner.
    package func release() {
        let fd = descriptor.withLock { held in
            defer { held = nil }
            return held
        }
        if let fd { Glibc.close(fd) }
    }
}
