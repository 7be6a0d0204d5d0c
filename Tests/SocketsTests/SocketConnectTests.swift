import Foundation
import Sockets
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The one socket connect against real sockets of the test's own: listeners on the loopback and
/// in a temporary folder, a port that refuses, a name that cannot resolve, a path too long for a
/// Unix address, and a listener whose accept queue is full, which drops the next handshake so
/// the connect's own timeout is what ends it.
@Suite("One socket connect")
struct SocketConnectTests {
    @Test func connectsToATCPListenerBlockingOrNot() throws {
        let listener = try TCPListener(backlog: 4)
        defer { close(listener.descriptor) }
        for blocking in [true, false] {
            let fd = try SocketConnect.tcp(host: "127.0.0.1", port: listener.port, timeout: 2, blocking: blocking)
            defer { close(fd) }
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
            #expect((fcntl(fd, F_GETFL) & O_NONBLOCK == 0) == blocking)
            let accepted = accept(listener.descriptor, nil, nil)
            #expect(accepted >= 0)
            // The connection is real: a byte sent one way arrives the other.
            var byte: UInt8 = 42
            #expect(send(fd, &byte, 1, Int32(MSG_NOSIGNAL)) == 1)
            var received: UInt8 = 0
            #expect(recv(accepted, &received, 1, 0) == 1)
            #expect(received == 42)
            close(accepted)
        }
    }

    @Test func connectsToAUnixListener() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-sockets-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.sock").path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0 && listen(listener, 1) == 0)
        let fd = try SocketConnect.unix(path: path)
        defer { close(fd) }
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(fd, F_GETFL) & O_NONBLOCK == 0)
        let accepted = accept(listener, nil, nil)
        #expect(accepted >= 0)
        close(accepted)
    }

    @Test func aUnixPathWithNoListenerIsAConnectFailure() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-sockets-missing-\(UUID().uuidString.prefix(8)).sock").path
        #expect(throws: SocketConnectError(.connect, String(cString: strerror(ENOENT)))) { try SocketConnect.unix(path: path) }
    }

    @Test func aClosedPortRefuses() throws {
        // A port bound and closed at once: nothing listens on it.
        let port = try TCPListener(backlog: 1).closed()
        for blocking in [true, false] {
            #expect(throws: SocketConnectError(.connect, String(cString: strerror(ECONNREFUSED)))) {
                try SocketConnect.tcp(host: "127.0.0.1", port: port, timeout: 2, blocking: blocking)
            }
        }
    }

    @Test func aNameThatCannotResolveFailsAtTheResolver() {
        // `.invalid` never resolves (RFC 2606). Without a resolver at all the reason differs
        // (a temporary failure rather than an unknown name), so only its step is held.
        let error = #expect(throws: SocketConnectError.self) {
            try SocketConnect.tcp(host: "tonearm-nowhere.invalid", port: 6600, timeout: 2, blocking: true)
        }
        #expect(error?.step == .resolve)
        #expect(error?.reason.isEmpty == false)
    }

    @Test func aUnixPathTooLongFailsBeforeAnySocket() {
        let path = "/tmp/" + String(repeating: "a", count: 200)
        #expect(throws: SocketConnectError(.path, "socket path too long")) { try SocketConnect.unix(path: path) }
    }

    /// Linux drops a handshake for a listener whose accept queue is full (it never answers the
    /// SYN, and the client tries again only after a second), so a connect there waits out its own
    /// timeout, whatever the machine's speed. The queue of a backlog of 0 is full with one
    /// connection nobody accepted; the listener reads as readable once it holds it.
    @Test func aListenerThatNeverAnswersTimesOut() throws {
        let listener = try TCPListener(backlog: 0)
        defer { close(listener.descriptor) }
        let first = try SocketConnect.tcp(host: "127.0.0.1", port: listener.port, timeout: 2, blocking: true)
        defer { close(first) }
        var queued = pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)
        try #require(poll(&queued, 1, 2000) == 1, "the first connection never reached the accept queue")
        let started = ContinuousClock.now
        #expect(throws: SocketConnectError(.connect, "no answer within 0.3 s")) {
            try SocketConnect.tcp(host: "127.0.0.1", port: listener.port, timeout: 0.3, blocking: true)
        }
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(300))
        #expect(waited < .seconds(5))
    }
}

/// A TCP listener on 127.0.0.1 at a port the system chose, made with plain socket, bind and listen.
struct TCPListener {
    let descriptor: Int32
    let port: Int

    init(backlog: Int32) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = descriptor
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { name in
                bind(fd, name, length) == 0 && listen(fd, backlog) == 0 && getsockname(fd, name, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Closes the listener and returns its port, where nothing listens now.
    func closed() -> Int {
        close(descriptor)
        return port
    }
}
