/// What the MPD server asks of the player behind it (the server owns the socket, the framing,
/// command lists, passwords, `idle`, and the commands about the connection itself: `password`,
/// `close`, `ping`, `idle`, `noidle`, `commands`, `notcommands`, `binarylimit`, `tagtypes`,
/// `command_list_*`, `config`, and the client-to-client messages, which connections share
/// through the server's `MPDMessageBoard`).
public protocol MPDBackend: Sendable {
    /// Every command `execute` implements, with the arguments and permission each needs: what
    /// `commands` and `notcommands` list. A command outside them is answered `ACK [5@…] unknown
    /// command`, one the client may not run or with the wrong number of arguments its `ACK`, all
    /// without reaching the backend.
    var commandSpecs: [MPDCommandSpec] { get }
    /// The tags the backend's songs can carry, named as `MPDTagNames` spells them: what
    /// `tagtypes` lists (less what a connection turned off).
    var tagTypes: [String] { get }
    /// Runs one command of a client allowed to, its arguments counted against its spec. A failure
    /// is an `MPDAck` (the server fills in its command and list index). `command.client` is what
    /// the sending connection has set for itself; songs are told with `client.songFields`.
    func execute(_ command: MPDCommand) async throws(MPDAck) -> MPDResponse
    /// Every change from now on, as the subsystem it touched, for one connection's `idle`. The
    /// stream ends when the backend shuts down.
    func changes() -> AsyncStream<MPDSubsystem>
    /// What `config` tells a client on the local socket, MPD's `music_directory: PATH` when the
    /// backend has one; the server refuses every other client.
    var localConfiguration: MPDResponse { get }
}

extension MPDBackend {
    /// A backend whose answers carry no tags.
    public var tagTypes: [String] { [] }
    /// A backend without a music directory: `config` answers nothing but `OK`.
    public var localConfiguration: MPDResponse { .empty }
}
