/// The protocol's error answer, `ACK [code@index] {command} message`: what failed, in which
/// command of a command list, and why in words a client shows its user.
public struct MPDAck: Error, Sendable, Hashable {
    /// The protocol's error numbers (MPD's `enum ack`); clients act on them, so they are exact.
    public enum Code: Int, Sendable, Hashable {
        case notList = 1
        case argument = 2
        case password = 3
        case permission = 4
        case unknown = 5
        case noExist = 50
        case playlistMax = 51
        case system = 52
        case playlistLoad = 53
        case updateAlready = 54
        case playerSync = 55
        case exist = 56
    }

    public var code: Code
    public var message: String
    /// The failed command's name; the server fills it in when the backend leaves it empty.
    public var command: String
    /// The failed command's place in a command list (0 outside one); set by the server.
    public var listIndex: Int

    public init(_ code: Code, _ message: String, command: String = "", listIndex: Int = 0) {
        self.code = code
        self.message = message
        self.command = command
        self.listIndex = listIndex
    }

    /// The line sent to the client (without its newline). The message is one line: any line break
    /// a backend put in it is replaced so a client cannot be fed a forged second line.
    public var line: String {
        let oneLine = message.map { $0.isNewline ? " " : String($0) }.joined()
        return "ACK [\(code.rawValue)@\(listIndex)] {\(command)} \(oneLine)"
    }
}
