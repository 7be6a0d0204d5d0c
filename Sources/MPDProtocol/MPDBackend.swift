/// What the MPD server asks of the player behind it (the server owns the socket, the framing,
/// command lists, passwords, `idle`, and the commands about the connection itself: `password`,
/// `close`, `ping`, `idle`, `noidle`, `commands`, `notcommands`, `command_list_*`).
public protocol MPDBackend: Sendable {
    /// Every command `execute` implements, with the arguments and permission each needs: what
    /// `commands` and `notcommands` list. A command outside them is answered `ACK [5@…] unknown
    /// command`, one the client may not run or with the wrong number of arguments its `ACK`, all
    /// without reaching the backend.
    var commandSpecs: [MPDCommandSpec] { get }
    /// Runs one command of a client allowed to, its arguments counted against its spec. A failure
    /// is an `MPDAck` (the server fills in its command and list index).
    func execute(_ command: MPDCommand) async throws(MPDAck) -> MPDResponse
    /// Every change from now on, as the subsystem it touched, for one connection's `idle`. The
    /// stream ends when the backend shuts down.
    func changes() -> AsyncStream<MPDSubsystem>
}
