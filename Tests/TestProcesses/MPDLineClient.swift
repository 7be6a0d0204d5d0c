import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A raw MPD protocol client for tests: one connection to a Unix socket or a TCP port, a
/// command sent, its answer read to `OK` or `ACK`. What mpc shows is formatted; this shows the
/// fields, so Tonearm's answers can be compared with a real mpd's key by key.
package final class MPDLineClient: @unchecked Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    private let fd: Int32
    /// Where this client is connected, named in its failures so a log says which server was silent.
    private let address: String
    private var buffer: [UInt8] = []
    /// The greeting line, `OK MPD x.y.z`.
    package private(set) var greeting = ""

    /// Connects to a Unix socket path, or `host:port` when `path` has no slash.
    package init(_ address: String, timeout: Double = 10) throws {
        self.address = address
        if address.contains("/") {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(address.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { throw Failure(description: "socket path too long") }
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in
                for (i, b) in bytes.enumerated() { raw[i] = b }
                raw[bytes.count] = 0
            }
            let result = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            // deinit closes `fd` (it runs when init throws after every property is set);
            // closing it here too would close whatever descriptor the number was given to next.
            guard result == 0 else {
                throw Failure(description: "connect \(address): errno \(errno)")
            }
        } else {
            let parts = address.split(separator: ":")
            guard parts.count == 2, let port = UInt16(parts[1]) else { throw Failure(description: "bad address \(address)") }
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = port.bigEndian
            inet_pton(AF_INET, String(parts[0]), &addr.sin_addr)
            let result = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            // deinit closes `fd` (it runs when init throws after every property is set);
            // closing it here too would close whatever descriptor the number was given to next.
            guard result == 0 else {
                throw Failure(description: "connect \(address): errno \(errno)")
            }
        }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        greeting = try readLine()
    }

    deinit { close(fd) }

    /// Sends one line (a newline is added) without reading anything.
    package func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, bytes.count) }
        guard written == bytes.count else { throw Failure(description: "write failed: errno \(errno)") }
    }

    /// Sends bytes as they are, all of them, in as many writes as the socket takes; a server
    /// that closed is an error here, never a SIGPIPE.
    package func send(bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Sends `line` and reads its answer: the fields in order, and the `ACK` line when it failed.
    package func command(_ line: String) throws -> (fields: [(key: String, value: String)], ack: String?) {
        try send(line)
        return try answer()
    }

    /// Reads one answer up to `OK` or `ACK`.
    package func answer() throws -> (fields: [(key: String, value: String)], ack: String?) {
        var fields: [(String, String)] = []
        while true {
            let line = try readLine()
            if line == "OK" { return (fields, nil) }
            if line.hasPrefix("ACK ") { return (fields, line) }
            if line == "list_OK" { continue }
            guard let colon = line.range(of: ": ") else { throw Failure(description: "not a field: \(line)") }
            fields.append((String(line[..<colon.lowerBound]), String(line[colon.upperBound...])))
        }
    }

    /// `status` as a dictionary.
    package func status() throws -> [String: String] {
        Dictionary(try command("status").fields.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// The first value of `key` in `command`'s answer.
    package func value(_ command: String, _ key: String) throws -> String? {
        try self.command(command).fields.first { $0.key == key }?.value
    }

    package func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
            guard n > 0 else { throw Failure(description: n == 0 ? "\(address) closed the connection" : errno == EAGAIN ? "\(address) did not answer in time" : "read from \(address) failed: errno \(errno)") }
            buffer += chunk[..<n]
        }
    }
}
