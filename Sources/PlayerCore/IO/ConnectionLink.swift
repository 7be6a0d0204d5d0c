import Synchronization

/// What a network source knows about its connection at one moment: facts, never verdicts. Whether
/// a silence is a stall, and when to give a connection up, is the player's state machine's call.
package enum ConnectionFact: Sendable, Equatable {
    /// The source has nothing to give: a reader waits for bytes, and there is room for them (a
    /// slow or silent server, or one that has not answered yet). Told once per dry spell.
    case dry
    /// Bytes (or a response head) arrive again after `dry`.
    case receiving
    /// The connection ended before the source did (a live stream's body ended, a reset).
    case dropped(PlaybackError)
    /// A live playlist (HLS) was loaded `loads` times in a row without a new segment: the
    /// connection works, and the stream publishes nothing new. Told after each such load.
    case playlistUnchanged(loads: Int)
}

/// The line between one load's network source and the player: the source reports `ConnectionFact`s
/// up it, and the player sends two commands down it: `abandon(cause:)` when its state machine
/// decides that a connection is dead, and `reopen()` when it decides a dropped live stream should be
/// asked for again while its buffered audio plays. It also passes one fact down: `underrun()`, the
/// player's audio ran out (a source with lighter variants of its stream takes a lighter one).
///
/// A source that makes several connections in turn (an episode resuming after a drop) hands the same
/// link to each; the latest to call `onAbandon` is the one abandoned. A link nobody listens to
/// (`ConnectionLink()`) drops facts, so sources work without a player too.
package final class ConnectionLink: Sendable {
    private let report: @Sendable (ConnectionFact) -> Void
    private let state = Mutex<State>(State())

    private struct State {
        var lastFact: ConnectionFact?
        var abandonHandler: (@Sendable (PlaybackError) -> Void)?
        var reopenHandler: (@Sendable () -> Void)?
        var bufferedBytesReader: (@Sendable () -> Int)?
        var decodedAheadReader: (@Sendable () -> Double)?
        var underrunHandler: (@Sendable () -> Void)?
        var bitRate: Int?
    }

    /// The player answers every drop of a live stream, with `reopen()` or `abandon(cause:)`: its
    /// source waits for that answer before failing a reader. A link without such a player (a
    /// source used on its own) leaves the source to fail at once, as the end of a stream.
    package let answersDrops: Bool

    /// - Parameters:
    ///   - answersDrops: see `answersDrops` (the player's links say true).
    ///   - report: receives the facts, in order, on the source's threads; it must not block.
    package init(answersDrops: Bool = false, report: @escaping @Sendable (ConnectionFact) -> Void = { _ in }) {
        self.answersDrops = answersDrops
        self.report = report
    }

    /// Passes `fact` on unless it repeats the previous one (a second `dry` in a row says nothing
    /// new; a second drop does: each reopen that fails is one). Serialised, so the player sees the
    /// facts in the order they happened.
    package func tell(_ fact: ConnectionFact) {
        state.withLock { state in
            if case .dropped = fact {} else if state.lastFact == fact { return }
            state.lastFact = fact
            report(fact)
        }
    }

    /// Sets what `abandon(cause:)` does: the source fails its current connection with the cause.
    package func onAbandon(_ handler: @escaping @Sendable (PlaybackError) -> Void) {
        state.withLock { $0.abandonHandler = handler }
    }

    /// Sets what `reopen()` does: the source asks for its live stream again.
    package func onReopen(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.reopenHandler = handler }
    }

    /// Asks the source for its stream again after a drop (the player decided to reconnect while
    /// the buffered audio plays). A source that cannot does nothing.
    package func reopen() {
        let handler = state.withLock { $0.reopenHandler }
        handler?()
    }

    /// Gives the current connection up with `cause` (the player decided it is dead).
    package func abandon(cause: PlaybackError) {
        let handler = state.withLock { $0.abandonHandler }
        handler?(cause)
    }

    /// Sets what `underrun()` does: a source that can ask for less (a lower HLS variant) does.
    package func onUnderrun(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.underrunHandler = handler }
    }

    /// Tells the source that the player's decoded audio ran out while it played: the bytes did not
    /// come as fast as they were played.
    package func underrun() {
        let handler = state.withLock { $0.underrunHandler }
        handler?()
    }

    /// Sets how the player learns what the source holds that was received but not yet read (its
    /// ring), for the connection indicator.
    package func onBufferedBytes(_ reader: @escaping @Sendable () -> Int) {
        state.withLock { $0.bufferedBytesReader = reader }
    }

    /// Bytes received and not yet read; nil when the source does not say.
    package func bufferedBytes() -> Int? {
        let reader = state.withLock { $0.bufferedBytesReader }
        return reader?()
    }

    /// Sets how the source learns how far its reader is ahead of the listener: seconds of audio
    /// decoded and not yet played. A source well ahead may read the network less often.
    package func onDecodedAhead(_ reader: @escaping @Sendable () -> Double) {
        state.withLock { $0.decodedAheadReader = reader }
    }

    /// Seconds of audio decoded and not yet played; 0 until a reader says (a deck not yet made).
    package func decodedAhead() -> Double {
        let reader = state.withLock { $0.decodedAheadReader }
        return reader?() ?? 0
    }

    /// The stream's bit rate (bits per second) once its decoder knows it: what buffered bytes are
    /// worth in seconds, and the bitrate the listener is shown.
    package var bitRate: Int? {
        get { state.withLock { $0.bitRate } }
        set { state.withLock { $0.bitRate = newValue.flatMap { $0 > 0 ? $0 : nil } } }
    }
}
