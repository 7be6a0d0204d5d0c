/// One request as the MPD protocol defines it: a command name and its arguments, already unquoted
/// and unescaped. What a client sent, never trusted: the server bounds it before anyone reads it.
/// The connection hands it to the backend with what that client has set for itself (`client`:
/// its `binarylimit` and `tagtypes`), since one backend answers every connection.
public struct MPDCommand: Sendable, Hashable {
    public var name: String
    public var arguments: [String]
    /// The sending connection's own settings, as they were when the command ran.
    public var client: MPDClientState

    public init(_ name: String, _ arguments: [String] = [], client: MPDClientState = MPDClientState()) {
        self.name = name
        self.arguments = arguments
        self.client = client
    }
}
