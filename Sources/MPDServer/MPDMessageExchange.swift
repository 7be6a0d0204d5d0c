import MPDProtocol
import Synchronization

/// The one `MPDMessageBoard` every connection of a server shares, and the way back to each
/// connection: a command runs on the board under a lock (so `sendmessage` knows at once whether
/// anyone took the message), and the connections the outcome names are told the change on their
/// own event loops, as a change of the player reaches them.
final class MPDMessageExchange: Sendable {
    /// Tells one connection that a subsystem changed; it hops to that connection's event loop.
    typealias Listener = @Sendable (MPDSubsystem) -> Void

    private struct State {
        var board = MPDMessageBoard()
        var listeners: [MPDMessageBoard.ClientID: Listener] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// A new connection, told of `subscription` and `message` changes through `listener`.
    func join(_ listener: @escaping Listener) -> MPDMessageBoard.ClientID {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.listeners[id] = listener
            return id
        }
    }

    /// A connection closed: its subscriptions and unread messages are dropped.
    func leave(_ client: MPDMessageBoard.ClientID) {
        state.withLock { state in
            state.listeners[client] = nil
            state.board.remove(client)
        }
    }

    /// Runs one message command for `client` and tells whom it concerns; the listeners are
    /// called after the lock is released.
    func run(_ command: MPDCommand, from client: MPDMessageBoard.ClientID) -> Result<MPDResponse, MPDAck> {
        let (outcome, notices) = state.withLock { state in
            let outcome = state.board.run(command, from: client)
            var notices: [(Listener, MPDSubsystem)] = []
            if outcome.subscriptionChanged { notices += state.listeners.values.map { ($0, .subscription) } }
            notices += outcome.messaged.compactMap { id in state.listeners[id].map { ($0, .message) } }
            return (outcome, notices)
        }
        for (listener, subsystem) in notices { listener(subsystem) }
        return outcome.result
    }
}
