import Foundation
import MPDProtocol
import Sockets

#if canImport(Glibc)
    import Glibc
#endif

/// Why talking to MPD failed.
public enum MPDConnectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No connection, or it broke, or what came back was not MPD's answer.
    case io(String)
    /// MPD answered `ACK [error@line] {command} message`.
    case ack(String)
    /// A command no request line can carry (a control character in an argument); nothing was sent.
    case invalidRequest(String)

    public var description: String {
        switch self {
        case .io(let text): "MPD connection: \(text)"
        case .ack(let line): "MPD: \(line)"
        case .invalidRequest(let text): "MPD request: \(text)"
        }
    }
}

/// A small blocking MPD client connection: one command at a time, answers as key/value pairs.
/// The lines are MPDProtocol's, as the server's own are: `MPDRequestEncoder` writes each request
/// and `MPDAnswerReader` reads the greeting and each answer, so the protocol is spelled once.
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
    private var reader = MPDAnswerReader(expectsGreeting: true)
    /// The greeting's version, `0.23.12` for example.
    public private(set) var serverVersion = ""

    /// Connects and reads the greeting.
    public init(_ address: Address, timeout: Double = 5) throws(MPDConnectionError) {
        descriptor = try Self.connect(address, timeout: timeout)
        // On a failure deinit closes the descriptor (a class's deinit runs when its init throws
        // after setting every property); closing it here too would close a number reused since.
        guard case .greeting(let version) = try nextAnswer() else { throw .io("not an MPD server: no greeting") }
        serverVersion = version
    }

    deinit { Glibc.close(descriptor) }

    /// Sends one command and reads its answer up to `OK`; `ACK` -> `.ack`.
    @discardableResult
    public func run(_ command: MPDCommand) throws(MPDConnectionError) -> [MPDResponse.Field] {
        let line: [UInt8]
        do {
            line = try MPDRequestEncoder.line(command)
        } catch {
            throw .invalidRequest("\(command.name): \(error)")
        }
        try send(line)
        switch try nextAnswer() {
        case .ok(let response): return response.fields
        case .ack(let ack): throw .ack(ack.line)
        case .greeting, .listOK: throw .io("an answer out of turn")
        }
    }

    /// Waits (blocking) until one of `subsystems` changes; returns the ones that changed.
    public func idle(_ subsystems: [String]) throws(MPDConnectionError) -> [String] {
        try run(MPDCommand("idle", subsystems)).filter { $0.key == "changed" }.map(\.value)
    }

    /// The next whole part of an answer, reading from the socket until the reader has one.
    private func nextAnswer() throws(MPDConnectionError) -> MPDAnswerReader.Event {
        while true {
            do {
                if let event = try reader.next() { return event }
            } catch {
                switch error {
                case .lineTooLong: throw .io("an answer line too long")
                case .malformedLine(let line): throw .io("not MPD's answer: \(line.prefix(80))")
                }
            }
            try receive()
        }
    }

    // MARK: Socket

    private func send(_ bytes: [UInt8]) throws(MPDConnectionError) {
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

    /// Hands the reader what the server sent next, waiting for it.
    private func receive() throws(MPDConnectionError) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(String(cString: strerror(errno)))
            }
            if count == 0 { throw .io("closed by the server") }
            reader.feed(chunk[..<count])
            return
        }
    }

    /// A blocking descriptor: `recv` waits (an `idle` may last hours), and a `send` waits
    /// `timeout` seconds at most, so a server that stops reading fails the command. The TCP
    /// connect waits `timeout` seconds at most an address; a Unix socket connects or fails at once.
    private static func connect(_ address: Address, timeout: Double) throws(MPDConnectionError) -> Int32 {
        let fd: Int32
        switch address {
        case .unix(let path):
            do throws(SocketConnectError) {
                fd = try SocketConnect.unix(path: path)
            } catch {
                throw .io(error.step == .connect ? "\(path): \(error.reason)" : error.reason)
            }
        case .tcp(let host, let port):
            do throws(SocketConnectError) {
                fd = try SocketConnect.tcp(host: host, port: port, timeout: timeout, blocking: true)
            } catch {
                throw .io(error.step == .resolve ? "\(host): \(error.reason)" : "\(host):\(port): \(error.reason)")
            }
        }
        let whole = timeout.rounded(.down)
        var limit = timeval(tv_sec: Int(whole), tv_usec: Int((timeout - whole) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }
}
