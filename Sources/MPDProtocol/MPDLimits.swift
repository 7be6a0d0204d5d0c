/// How much one client may ask of the server. Every bound is checked before the bytes are kept, so
/// a client that sends without end costs a closed connection, never the server's memory.
public struct MPDLimits: Sendable, Hashable {
    /// Bytes in one request line, without its newline. A longer line is refused and the connection
    /// closed (MPD's own input buffer is of this order).
    public var maxLineLength: Int
    /// Arguments after the command name. MPD 0.23's limit is `COMMAND_ARGV_MAX`, 2 + 2 × 31 tag types.
    public var maxArguments: Int
    /// Commands between `command_list_begin` and `command_list_end`.
    public var maxCommandListCount: Int
    /// Bytes of those commands together (MPD's `max_command_list_size`).
    public var maxCommandListBytes: Int
    /// Bytes a client may send ahead while its previous command still runs.
    public var maxBufferedInput: Int
    /// Clients connected at once; one more is answered with an ACK and closed.
    public var maxConnections: Int
    /// A client that is not in `idle` and sends nothing for this long is disconnected (MPD's
    /// `connection_timeout`), so forgotten connections do not hold a slot.
    public var silenceTimeout: Duration

    public init(
        maxLineLength: Int = 16 * 1024, maxArguments: Int = 64, maxCommandListCount: Int = 1000,
        maxCommandListBytes: Int = 1024 * 1024, maxBufferedInput: Int = 1024 * 1024 + 16 * 1024,
        maxConnections: Int = 32, silenceTimeout: Duration = .seconds(60)
    ) {
        self.maxLineLength = maxLineLength
        self.maxArguments = maxArguments
        self.maxCommandListCount = maxCommandListCount
        self.maxCommandListBytes = maxCommandListBytes
        self.maxBufferedInput = maxBufferedInput
        self.maxConnections = maxConnections
        self.silenceTimeout = silenceTimeout
    }

    public static let standard = MPDLimits()
}
