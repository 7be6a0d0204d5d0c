/// The client's side: reads what an MPD server sends, line by line up to `OK` or `ACK`, for a
/// front end that talks to an MPD server. A binary part (`binary: N`, album art) is read as its
/// N bytes into the answer's `binary`, never as lines.
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
    private let maxBinaryLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var fields = MPDResponse()
    private var expectsGreeting: Bool
    /// The bytes of a binary part still to read (after its `binary: N` line).
    private var binaryLength: Int?

    /// - Parameters:
    ///   - expectsGreeting: true for a new connection, whose first line is the greeting.
    ///   - maxBinaryLength: the longest binary part taken (a longer one is a malformed answer).
    public init(expectsGreeting: Bool = true, maxLineLength: Int = 64 * 1024, maxBinaryLength: Int = 8 * 1024 * 1024) {
        self.expectsGreeting = expectsGreeting
        self.maxLineLength = maxLineLength
        self.maxBinaryLength = maxBinaryLength
    }

    /// Drops what was read once it is the larger part of the buffer, so reading costs linear time.
    private mutating func compact() {
        guard start * 2 > buffer.count else { return }
        buffer.removeFirst(start)
        start = 0
    }

    public mutating func feed(_ bytes: some Sequence<UInt8>) { buffer.append(contentsOf: bytes) }

    /// The next complete event, or nil until more bytes arrive.
    public mutating func next() throws(ReadError) -> Event? {
        while true {
            if let length = binaryLength {
                // The bytes and the newline after them, once all have come.
                guard buffer.count - start > length else { return nil }
                fields.binary = Array(buffer[start..<(start + length)])
                start += length + 1
                binaryLength = nil
                compact()
                continue
            }
            guard let newline = buffer[start...].firstIndex(of: 0x0A) else { break }
            guard newline - start <= maxLineLength else { throw .lineTooLong }
            let line = String(decoding: buffer[start..<newline], as: UTF8.self)
            start = newline + 1
            compact()
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
            let key = line[..<colon.lowerBound]
            if key == "binary" {
                guard let length = Int(line[colon.upperBound...]), (0...maxBinaryLength).contains(length) else { throw .malformedLine(line) }
                binaryLength = length
                continue
            }
            fields.append(String(key), String(line[colon.upperBound...]))
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
