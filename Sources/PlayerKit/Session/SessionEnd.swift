import PlayerCore

/// When a playback session is over, as a front end that plays one thing sees it: the player
/// `finished`, or went back to `idle` after it had started (a stop). A failure ends it or not by
/// `waitsOnFailure`: a screen that shows the error and offers Retry waits; a script's run ends
/// with the error. A replacement never passes through `idle` or `finished`, so opening something
/// new (MPRIS OpenUri) does not end the session.
public struct SessionEnd: Sendable {
    public enum FailurePolicy: Sendable, Equatable {
        /// Every failure ends the session.
        case ends
        /// A failure the listener can retry keeps the session (someone may press Retry).
        case waitsWhenRecoverable
        /// Every failure stays until the listener stops or quits.
        case waits
    }

    public let onFailure: FailurePolicy
    public private(set) var started = false
    /// Asked at `finished`: true when something plays next on the same player (the next part of
    /// a queue that plays in parts), so this `finished` is no end.
    public let continues: (@Sendable () -> Bool)?

    public init(onFailure: FailurePolicy, continues: (@Sendable () -> Bool)? = nil) {
        self.onFailure = onFailure
        self.continues = continues
    }

    /// Sees the next state; true when the session is over.
    public mutating func isOver(after state: PlayerState) -> Bool {
        defer { if state.name != .idle { started = true } }
        switch state {
        case .finished: return !(continues?() ?? false)
        case .idle: return started
        case .failed(_, let recoverable, _):
            switch onFailure {
            case .ends: return true
            case .waitsWhenRecoverable: return !recoverable
            case .waits: return false
            }
        default: return false
        }
    }
}
