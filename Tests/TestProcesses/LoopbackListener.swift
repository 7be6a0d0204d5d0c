import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A listening TCP socket on 127.0.0.1, for the hand-written servers of the tests (the fault
/// proxy, raw answers NIO would not send, free ports). One place for the POSIX boilerplate.
public enum LoopbackListener {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Binds 127.0.0.1 on a free port and listens with `backlog` (0: bind only, to learn a port).
    /// Returns the descriptor, which the caller closes, and the port.
    public static func open(backlog: Int32) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, backlog == 0 || listen(fd, backlog) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw Failure(description: "bind/listen on 127.0.0.1: \(reason)")
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

    /// A port on 127.0.0.1 that nothing listens on right now (bound, then released).
    public static func freePort() throws -> Int {
        let (fd, port) = try open(backlog: 0)
        Glibc.close(fd)
        return port
    }
}
