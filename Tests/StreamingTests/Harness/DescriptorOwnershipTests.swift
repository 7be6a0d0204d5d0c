import Foundation
import TestProcesses
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The test servers close only what they own. Tests run in parallel in one process, so a server
/// that closes a descriptor number twice closes whatever another test opened under that number in
/// between (SwiftNIO then stops the whole process on its EBADF precondition, or a connection of
/// another test silently dies).
@Suite("Test servers own their descriptors", .blocking)
struct DescriptorOwnershipTests {
    /// A descriptor opened by "someone else" right after a server stopped, and what it was.
    private struct Sentinel {
        let read: Int32
        let write: Int32
        let inode: UInt

        init() throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            read = ends[0]
            write = ends[1]
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            var info = stat()
            fstat(read, &info)
            inode = UInt(info.st_ino)
        }

        /// Still open, still the same pipe, and still carries a byte from one end to the other.
        var isIntact: Bool {
            var info = stat()
            guard fstat(read, &info) == 0, UInt(info.st_ino) == inode else { return false }
            var byte: UInt8 = 42
            guard Glibc.write(write, &byte, 1) == 1 else { return false }
            byte = 0
            return Glibc.read(read, &byte, 1) == 1 && byte == 42
        }

        func close() {
            Glibc.close(read)
            Glibc.close(write)
        }
    }

    /// Stops servers while a client is half-way through its request (the server's side of that
    /// connection is busy reading), then opens pipes, which take the lowest free descriptor numbers:
    /// the ones the server just gave back. Every pipe must survive.
    @Test func aStoppedServerNeverClosesADescriptorItNoLongerOwns() throws {
        var sentinels: [Sentinel] = []
        defer { sentinels.forEach { $0.close() } }
        for _ in 0..<60 {
            let server = try RawTCPServer(response: Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8))
            let client = try IcecastServer.connect(port: server.port)
            let partial = Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8)
            _ = partial.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server has accepted the connection once the client can see it is established.
            var pending = pollfd(fd: client, events: Int16(POLLOUT), revents: 0)
            _ = poll(&pending, 1, 1000)
            server.stop()
            sentinels.append(try Sentinel())
            sentinels.append(try Sentinel())
            // The client finishes its request: a server thread still holding the old number would
            // now answer and close it.
            let rest = Array("\r\n".utf8)
            _ = rest.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            Glibc.close(client)
        }
        // Anything a stray server thread would do happens within milliseconds of the request; a
        // thread that does nothing sends no event, so real time has to pass before looking.
        Thread.sleep(forTimeInterval: 0.2)
        let damaged = sentinels.indices.filter { !sentinels[$0].isIntact }
        #expect(damaged.isEmpty, "descriptors closed or replaced by a stopped server: \(damaged.map { sentinels[$0].read })")
    }
}
