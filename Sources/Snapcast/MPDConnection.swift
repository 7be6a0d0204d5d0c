import Foundation
import MPDProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// Why talking to MPD failed.
public enum MPDConnectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No connection, or it broke.
    case io(String)
    /// MPD answered `ACK [error@line] {command} message`.
    case ack(String)

    public var description: String {
        switch self {
        case .io(let text): "MPD connection: \(text)"
        case .ack(let line): "MPD: \(line)"
        }
    }
}

/// A small blocking MPD client connection: one command at a time, answers as key/value pairs.
/// Used from one thread at a time (the `@unchecked Sendable` rests on that).
public final class MPDConnection: @unchecked Sendable {
    /// Where the server listens: a TCP host and port, or a Unix socket path.
    public enum Address: Sendable, Equatable, CustomStringConvertible {
        case tcp(host: String, port: Int)
        case unix(path: String)

        /// A host starting with `/` is a Unix socket path (as `mpc` reads `MPD_HOST`).
        public init(host: String, port: Int) {
            self = host.hasPrefix("/") ? .unix(path: host) : .tcp(host: host, port: port)
        }

        public var description: String {
            switch self {
            case .tcp(let host, let port): "\(host):\(port)"
            case .unix(let path): path
            }
        }
    }

    private let descriptor: Int32
    private var pending: [UInt8] = []
    /// The greeting's version, `0.23.12` for example.
    public private(set) var serverVersion = ""

    /// Connects and reads the greeting.
    public init(_ address: Address, timeout: Double = 5) throws(MPDConnectionError) {
        descriptor = try Self.connect(address, timeout: timeout)
        do throws(MPDConnectionError) {
            let greeting = try readLine()
            guard greeting.hasPrefix("OK MPD ") else { throw MPDConnectionError.io("not an MPD server: \(greeting.prefix(80))") }
            serverVersion = String(greeting.dropFirst("OK MPD ".count))
        } catch {
            // deinit closes the descriptor (a class's deinit runs when its init throws after
            // setting every property); closing it here too would close a number reused since.
            throw error
        }
    }

    deinit { Glibc.close(descriptor) }

    /// Sends one command and reads its answer up to `OK`; `ACK` -> `.ack`.
    @discardableResult
    public func run(_ command: MPDCommand) throws(MPDConnectionError) -> [(key: String, value: String)] {
        try send(Self.encode(command))
        var fields: [(key: String, value: String)] = []
        while true {
            let line = try readLine()
            if line == "OK" { return fields }
            if line.hasPrefix("ACK ") { throw .ack(line) }
            if let colon = line.firstIndex(of: ":") {
                let value = line[line.index(after: colon)...].drop(while: { $0 == " " })
                fields.append((String(line[..<colon]), String(value)))
            }
        }
    }

    /// Waits (blocking) until one of `subsystems` changes; returns the ones that changed.
    public func idle(_ subsystems: [String]) throws(MPDConnectionError) -> [String] {
        try run(MPDCommand("idle", subsystems)).filter { $0.key == "changed" }.map(\.value)
    }

    /// A command line as MPD reads it: every argument quoted, `"` and `\` escaped.
    public static func encode(_ command: MPDCommand) -> String {
        let arguments = command.arguments.map { argument in
            "\"" + argument.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return ([command.name] + arguments).joined(separator: " ") + "\n"
    }

    // MARK: Socket

    private func send(_ text: String) throws(MPDConnectionError) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .io(String(cString: strerror(errno)))
            }
            offset += written
        }
    }

    private func readLine() throws(MPDConnectionError) -> String {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(String(cString: strerror(errno)))
            }
            if count == 0 { throw .io("closed by the server") }
            pending += chunk[..<count]
        }
    }

    private static func connect(_ address: Address, timeout: Double) throws(MPDConnectionError) -> Int32 {
        switch address {
        case .unix(let path):
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw .io(String(cString: strerror(errno))) }
            var name = sockaddr_un()
            name.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: name.sun_path) else {
                Glibc.close(fd)
                throw .io("socket path too long")
            }
            withUnsafeMutableBytes(of: &name.sun_path) { raw in
                for (index, byte) in bytes.enumerated() { raw[index] = byte }
            }
            let connected = withUnsafePointer(to: &name) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard connected == 0 else {
                let reason = String(cString: strerror(errno))
                Glibc.close(fd)
                throw .io("\(path): \(reason)")
            }
            return fd
        case .tcp(let host, let port):
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let resolved = getaddrinfo(host, String(port), &hints, &list)
            guard resolved == 0, let first = list else { throw .io("\(host): \(String(cString: gai_strerror(resolved)))") }
            defer { freeaddrinfo(list) }
            var reason = "no address"
            var entry: UnsafeMutablePointer<addrinfo>? = first
            while let info = entry {
                entry = info.pointee.ai_next
                let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                guard fd >= 0 else { continue }
                var limit = timeval(tv_sec: Int(timeout), tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
                reason = String(cString: strerror(errno))
                Glibc.close(fd)
            }
            throw .io("\(host):\(port): \(reason)")
        }
    }
}
