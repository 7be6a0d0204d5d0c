/// The client's side: reads what an MPD server sends, line by line up to `OK` or `ACK`, for a
/// front end that talks to an MPD server. Binary answers (`binary: N`, album art) are not read.
public struct MPDAnswerReader: Sendable {
    /// One complete part of an answer.
    public enum Event: Sendable, Hashable {
        /// The greeting's protocol version (`OK MPD 0.23.5`), the first line of a connection.
        case greeting(version: String)
        /// The fields of one command of a `command_list_ok_begin` list, ended by `list_OK`.
        case listOK(MPDResponse)
        /// The fields of a whole answer, ended by `OK`.
        case ok(MPDResponse)
        /// The server's error; fields read before it are dropped.
        case ack(MPDAck)
    }

    public enum ReadError: Error, Sendable, Hashable {
        case lineTooLong
        /// A line that is neither `key: value` nor an end of answer.
        case malformedLine(String)
    }

    private let maxLineLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var fields = MPDResponse()
    private var expectsGreeting: Bool

    /// - Parameter expectsGreeting: true for a new connection, whose first line is the greeting.
    public init(expectsGreeting: Bool = true, maxLineLength: Int = 64 * 1024) {
        self.expectsGreeting = expectsGreeting
        self.maxLineLength = maxLineLength
    }

    public mutating func feed(_ bytes: some Sequence<UInt8>) { buffer.append(contentsOf: bytes) }

    /// The next complete event, or nil until more bytes arrive.
    public mutating func next() throws(ReadError) -> Event? {
        while let newline = buffer[start...].firstIndex(of: 0x0A) {
            guard newline - start <= maxLineLength else { throw .lineTooLong }
            let line = String(decoding: buffer[start..<newline], as: UTF8.self)
            start = newline + 1
            if start * 2 > buffer.count {
                buffer.removeFirst(start)
                start = 0
            }
            if expectsGreeting {
                guard line.hasPrefix("OK MPD ") else { throw .malformedLine(line) }
                expectsGreeting = false
                return .greeting(version: String(line.dropFirst(7)))
            }
            if line == "OK" {
                defer { fields = MPDResponse() }
                return .ok(fields)
            }
            if line == "list_OK" {
                defer { fields = MPDResponse() }
                return .listOK(fields)
            }
            if line.hasPrefix("ACK ") {
                guard let ack = MPDAck(line: line) else { throw .malformedLine(line) }
                fields = MPDResponse()
                return .ack(ack)
            }
            guard let colon = line.firstRange(of: ": ") else { throw .malformedLine(line) }
            fields.append(String(line[..<colon.lowerBound]), String(line[colon.upperBound...]))
        }
        guard buffer.count - start <= maxLineLength else { throw .lineTooLong }
        return nil
    }
}

extension MPDAck {
    /// Reads an `ACK [code@index] {command} message` line; an error number this protocol version
    /// does not define reads as `.unknown`.
    public init?(line: String) {
        guard line.hasPrefix("ACK ["), let at = line.firstIndex(of: "@"), let close = line.firstIndex(of: "]"), at < close,
            let number = Int(line[line.index(line.startIndex, offsetBy: 5)..<at]),
            let index = Int(line[line.index(after: at)..<close])
        else { return nil }
        let rest = line[line.index(after: close)...].drop { $0 == " " }
        guard rest.first == "{", let end = rest.firstIndex(of: "}") else { return nil }
        let command = String(rest[rest.index(after: rest.startIndex)..<end])
        let message = String(rest[rest.index(after: end)...].drop { $0 == " " })
        self.init(Code(rawValue: number) ?? .unknown, message, command: command, listIndex: index)
    }
}
