/// How much one client may ask of the server. Every bound is checked before the bytes are kept, so
/// a client that sends without end costs a closed connection, never the server's memory.
public struct MPDLimits: Sendable, Hashable {
    /// Bytes in one request line, without its newline. A longer line is refused and the connection
    /// closed (MPD's own input buffer is of this order).
    public var maxLineLength: Int
    /// Arguments after the command name. MPD 0.23's limit is `COMMAND_ARGV_MAX`, 2 + 2 × 31 tag types.
    public var maxArguments: Int
    /// Bytes of the commands between `command_list_begin` and `command_list_end`, each counted as
    /// its line without trailing white space plus one, as MPD counts its `max_command_list_size`;
    /// there is no bound on how many commands that is. A list that grows past it ends the
    /// connection without an answer, as MPD ends it.
    public var maxCommandListBytes: Int
    /// Bytes a client may send ahead while its previous command still runs: by default a whole
    /// command list and one line more, so a client may send its longest list in one go.
    public var maxBufferedInput: Int
    /// Clients connected at once; one more is answered with an ACK and closed.
    public var maxConnections: Int
    /// A client that is not in `idle` and sends nothing for this long is disconnected (MPD's
    /// `connection_timeout`), so forgotten connections do not hold a slot.
    public var silenceTimeout: Duration
    /// The largest `binarylimit` a client may set: MPD's is its output buffer (8 MiB by default)
    /// less 4 KiB for the lines around the binary part.
    public var maxBinaryLimit: Int

    /// MPD's default `max_command_list_size`, 2 MiB.
    public static let defaultCommandListBytes = 2048 * 1024

    /// - Parameter maxBufferedInput: nil: `maxCommandListBytes` and one line.
    public init(
        maxLineLength: Int = 16 * 1024, maxArguments: Int = 64, maxCommandListBytes: Int = MPDLimits.defaultCommandListBytes,
        maxBufferedInput: Int? = nil, maxConnections: Int = 32, silenceTimeout: Duration = .seconds(60),
        maxBinaryLimit: Int = 8192 * 1024 - 4096
    ) {
        self.maxLineLength = maxLineLength
        self.maxArguments = maxArguments
        self.maxCommandListBytes = maxCommandListBytes
        self.maxBufferedInput = maxBufferedInput ?? maxCommandListBytes + maxLineLength
        self.maxConnections = maxConnections
        self.silenceTimeout = silenceTimeout
        self.maxBinaryLimit = maxBinaryLimit
    }

    public static let standard = MPDLimits()
}
