/// One request as the MPD protocol defines it: a command name and its arguments, already unquoted
/// and unescaped. What a client sent, never trusted: the server bounds it before anyone reads it.
public struct MPDCommand: Sendable, Hashable {
    public var name: String
    public var arguments: [String]

    public init(_ name: String, _ arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }
}
