/// What the MPD server asks of the player behind it (the server owns the socket, the framing,
/// command lists, passwords, `idle`, and the commands about the connection itself: `password`,
/// `close`, `ping`, `idle`, `noidle`, `commands`, `notcommands`, `command_list_*`).
public protocol MPDBackend: Sendable {
    /// The names of every command `execute` implements, for `commands` and `notcommands`; a
    /// command outside them is answered `ACK [5@…] unknown command` without reaching the backend.
    var commandNames: Set<String> { get }
    /// Runs one command of an authorised client. A failure is an `MPDAck` (the server fills in its
    /// command and list index).
    func execute(_ command: MPDCommand) async throws(MPDAck) -> MPDResponse
    /// Every change from now on, as the subsystem it touched, for one connection's `idle`. The
    /// stream ends when the backend shuts down.
    func changes() -> AsyncStream<MPDSubsystem>
}
