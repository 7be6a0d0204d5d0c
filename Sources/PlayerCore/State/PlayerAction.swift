/// A user intent. `PlayerState.allowedActions` says which ones the current state accepts; the
/// state machine rejects the rest with `invalidTransition`, so controls can never lie.
public enum PlayerAction: String, Sendable, Hashable, Codable, CaseIterable {
    case play
    case pause
    case resume
    case stop
    case skip
    case seek
    /// Retry from a recoverable failure, at the saved position.
    case retry
    /// Clear a terminal state back to idle.
    case reset
    /// During a reconnect countdown: try now instead of waiting.
    case retryNow
    /// During a reconnect countdown: stop trying and show the failure with a Retry action.
    case cancelRetry
}
