import Synchronization

/// What a network source knows about its connection at one moment: facts, never verdicts. Whether
/// a silence is a stall, and when to give a connection up, is the player's state machine's call.
public enum ConnectionFact: Sendable, Equatable {
    /// The source has nothing to give: a reader waits for bytes, and there is room for them (a
    /// slow or silent server, or one that has not answered yet). Told once per dry spell.
    case dry
    /// Bytes (or a response head) arrive again after `dry`.
    case receiving
    /// The connection ended before the source did (a live stream's body ended, a reset).
    case dropped(PlaybackError)
}

/// The line between one load's network source and the player: the source reports `ConnectionFact`s
/// up it, and the player sends one command down it, `abandon(cause:)`, when its state machine decides
/// that a connection is dead.
///
/// A source that makes several connections in turn (an episode resuming after a drop) hands the same
/// link to each; the latest to call `onAbandon` is the one abandoned. A link nobody listens to
/// (`ConnectionLink()`) drops facts, so sources work without a player too.
public final class ConnectionLink: Sendable {
    private let report: @Sendable (ConnectionFact) -> Void
    private let state = Mutex<State>(State())

    private struct State {
        var lastFact: ConnectionFact?
        var abandonHandler: (@Sendable (PlaybackError) -> Void)?
    }

    /// - Parameter report: receives the facts, in order, on the source's threads; it must not block.
    public init(report: @escaping @Sendable (ConnectionFact) -> Void = { _ in }) {
        self.report = report
    }

    /// Passes `fact` on unless it repeats the previous one (a second `dry` in a row says nothing
    /// new). Serialised, so the player sees the facts in the order they happened.
    public func tell(_ fact: ConnectionFact) {
        state.withLock { state in
            guard state.lastFact != fact else { return }
            state.lastFact = fact
            report(fact)
        }
    }

    /// Sets what `abandon(cause:)` does: the source fails its current connection with the cause.
    public func onAbandon(_ handler: @escaping @Sendable (PlaybackError) -> Void) {
        state.withLock { $0.abandonHandler = handler }
    }

    /// Gives the current connection up with `cause` (the player decided it is dead).
    public func abandon(cause: PlaybackError) {
        let handler = state.withLock { $0.abandonHandler }
        handler?(cause)
    }
}
