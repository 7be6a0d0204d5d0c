/// The arithmetic of a token bucket, as a value on a clock given in seconds: `RetryBudget` keeps
/// one behind a lock for the services' requests, and the player's state machine keeps one in its
/// state for reconnects, so both spend and refill by the same rule.
public struct TokenBucket: Sendable, Hashable {
    public let capacity: Double
    public let refillPerSecond: Double
    /// Tokens as of the last `refill` (fractional while refilling).
    public private(set) var tokens: Double
    private var updatedAt: Double

    /// A full bucket at `seconds`.
    public init(capacity: Double, refillPerSecond: Double, at seconds: Double) {
        self.capacity = max(0, capacity)
        self.refillPerSecond = max(0, refillPerSecond)
        tokens = self.capacity
        updatedAt = seconds
    }

    /// Adds what has refilled since the last call, up to `capacity`. Time never runs backwards.
    public mutating func refill(at seconds: Double) {
        guard seconds > updatedAt else { return }
        tokens = min(capacity, tokens + (seconds - updatedAt) * refillPerSecond)
        updatedAt = seconds
    }

    /// Takes one token at `seconds`; false when there is none (the budget is spent).
    public mutating func take(at seconds: Double) -> Bool {
        refill(at: seconds)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
