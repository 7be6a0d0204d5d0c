import Synchronization

/// A token bucket that caps how many retries one playback session may spend in total.
///
/// Why shared and not per call: when a server is down every request fails at once, and per-call
/// retries multiply the load exactly when it hurts most (Google SRE book, "Handling Overload";
/// Finagle's `RetryBudget`). One bucket per session lets a few retries through and then makes
/// every operation give up quickly until the bucket refills.
///
/// The first try of an operation never takes a token; only retries do.
public final class RetryBudget: Sendable {
    /// Ten retries in a burst, then one every two seconds: enough to ride out a blip, small
    /// enough that a dead server sees no retry storm from one player.
    public static let defaultCapacity: Double = 10
    public static let defaultRefillPerSecond: Double = 0.5

    public let capacity: Double
    public let refillPerSecond: Double

    /// How the budget has been used since it was made, for metrics and diagnostics.
    public struct Usage: Sendable, Hashable {
        /// Retries the budget allowed (tokens taken).
        public var spent = 0
        /// Retries the budget refused: operations that gave up early because it was empty.
        public var refused = 0

        public init(spent: Int = 0, refused: Int = 0) {
            self.spent = spent
            self.refused = refused
        }
    }

    private struct Held {
        var bucket: TokenBucket
        var usage = Usage()
    }

    private let held: Mutex<Held>
    private let elapsed: @Sendable () -> Duration

    /// - Parameters:
    ///   - capacity: tokens when full (the bucket starts full).
    ///   - refillPerSecond: tokens added per second of `clock` time, up to `capacity`.
    ///   - clock: measures refill time; inject a `TestClock` so tests never sleep.
    public init(
        capacity: Double = RetryBudget.defaultCapacity,
        refillPerSecond: Double = RetryBudget.defaultRefillPerSecond,
        clock: any Clock<Duration> = SystemClock()
    ) {
        let elapsed = monotonicElapsed(clock)
        self.elapsed = elapsed
        let full = TokenBucket(capacity: capacity, refillPerSecond: refillPerSecond, at: elapsed().inSeconds)
        self.capacity = full.capacity
        self.refillPerSecond = full.refillPerSecond
        held = Mutex(Held(bucket: full))
    }

    /// Takes one token for a retry. False means the session's budget is spent: give up now.
    public func tryAcquire() -> Bool {
        let now = elapsed().inSeconds
        return held.withLock { held in
            let taken = held.bucket.take(at: now)
            if taken { held.usage.spent += 1 } else { held.usage.refused += 1 }
            return taken
        }
    }

    /// Retries allowed and refused so far.
    public var usage: Usage { held.withLock { $0.usage } }

    /// Tokens available right now (fractional while refilling); for tests and diagnostics.
    public var available: Double {
        let now = elapsed().inSeconds
        return held.withLock { held in
            held.bucket.refill(at: now)
            return held.bucket.tokens
        }
    }

}

/// Reads an injected clock as "time elapsed since creation". Opening the existential once here
/// lets the resilience types store plain `Duration`s instead of a clock-specific `Instant`.
func monotonicElapsed<C: Clock>(_ clock: C) -> @Sendable () -> Duration where C.Duration == Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
}
