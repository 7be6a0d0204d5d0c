import Foundation

/// One scheduled retry, reported before the wait starts so a UI can show a countdown
/// ("Retrying in 4 s, attempt 2 of 3").
public struct RetryAttemptReport: Sendable, Hashable {
    /// The operation name given to `withRetry`.
    public let operation: String
    /// The attempt that will run after the wait (2 for the first retry).
    public let attempt: Int
    public let maxAttempts: Int
    /// Seconds until that attempt: the backoff delay, or the server's Retry-After if longer.
    public let delay: Double
    /// The failure that caused the retry.
    public let cause: PlaybackError

    public init(operation: String, attempt: Int, maxAttempts: Int, delay: Double, cause: PlaybackError) {
        self.operation = operation
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.delay = delay
        self.cause = cause
    }
}

/// Runs `body` until it succeeds, retrying transient failures with `policy`'s backoff.
///
/// Why one function with everything injected: every network operation in Tonearm needs the same
/// careful semantics, and tests must be able to drive them with a test clock and a fixed seed.
///
/// - Every error is converted with `PlaybackError.from`, so callers always get a typed error.
/// - An error that is not `isRetryable` ends the run at once.
/// - A server's Retry-After (seconds or HTTP-date, evaluated with `now`) lengthens the wait to
///   max(backoff, Retry-After) and still counts as one attempt.
/// - After `policy.maxAttempts` tries the last error is thrown.
/// - With a `budget`, each retry (never the first try) takes a token; an empty budget ends the run
///   with the last error.
/// - With a `breaker`, each try asks it first (key `breakerKey`, usually
///   `HostCircuitBreakers.host(of:)`, or the operation name); an open circuit fails fast with
///   `circuitOpen` (naming the key and the seconds until it is tried again) without calling `body`;
///   a retry refused that way ends the run with the error of its last try, like a spent budget.
///   Each try's outcome is reported as `CircuitBreaker.Outcome(error)` classifies it.
/// - Cancellation before a try or during a wait throws `.cancelled` with no further tries.
///
/// - Parameters:
///   - operation: a stable name for statistics and reports (never a URL or a title).
///   - policy: how many tries, and the backoff between them.
///   - clock: what the waits run on.
///   - random: the jitter's source.
///   - budget: the retries this run may still spend, shared with the rest of the session.
///   - breaker: the circuit breakers to ask before each try.
///   - breakerKey: the breaker's key (the operation name when nil).
///   - statistics: where each attempt is counted.
///   - now: the wall clock an HTTP-date Retry-After is read against.
///   - onRetry: called for each scheduled retry, before its wait.
///   - body: one try.
public func withRetry<T>(
    _ operation: String,
    policy: BackoffPolicy,
    clock: any Clock<Duration> = SystemClock(),
    random: SeededRandom = .systemSeeded(),
    budget: RetryBudget? = nil,
    breaker: CircuitBreaker? = nil,
    breakerKey: String? = nil,
    statistics: RetryStatistics? = nil,
    now: @Sendable () -> Date = Date.init,
    onRetry: @Sendable (RetryAttemptReport) -> Void = { _ in },
    body: @Sendable () async throws -> sending T
) async throws(PlaybackError) -> sending T {
    var random = random
    let key = breakerKey ?? operation
    var attempts = 0
    var previousDelay: Double?
    var lastFailure: PlaybackError?

    /// Records the run's end in the statistics and hands back the error to throw.
    func finish(_ error: PlaybackError) async -> PlaybackError {
        await statistics?.record(operation: operation, attempts: attempts, outcome: error.code == .cancelled ? .cancelled : .failure)
        return error
    }

    while true {
        if Task.isCancelled { throw await finish(PlaybackError(.cancelled)) }

        var permit: CircuitBreaker.Permit?
        if let breaker {
            guard let granted = breaker.acquire(key) else {
                // A run that already tried ends with what went wrong with it; a run refused before
                // its first try says why it made none.
                throw await finish(lastFailure ?? PlaybackError.circuitOpen(host: key, retryIn: breaker.secondsUntilPermitted(key)))
            }
            permit = granted
        }

        attempts += 1
        let failure: PlaybackError
        do {
            let value = try await body()
            if let breaker, let permit { breaker.record(permit, .success) }
            await statistics?.record(operation: operation, attempts: attempts, outcome: .success)
            return value
        } catch {
            failure = PlaybackError.from(error)
        }
        lastFailure = failure

        if let breaker, let permit {
            // Only transient failures say something about the host's health; a 404 is an answer.
            breaker.record(permit, CircuitBreaker.Outcome(failure))
        }

        guard failure.isRetryable, attempts < policy.maxAttempts else { throw await finish(failure) }
        if Task.isCancelled { throw await finish(PlaybackError(.cancelled)) }
        if let budget, !budget.tryAcquire() { throw await finish(failure) }

        let backoff = policy.delay(forRetry: attempts, previous: previousDelay, using: &random)
        previousDelay = backoff
        let wait = max(backoff, failure.retryAfter?.delay(now: now()) ?? 0)
        onRetry(RetryAttemptReport(operation: operation, attempt: attempts + 1, maxAttempts: policy.maxAttempts, delay: wait, cause: failure))

        if wait > 0 {
            do {
                try await clock.sleep(for: .seconds(wait))
            } catch {
                // Clocks throw only when the sleeping task is cancelled.
                throw await finish(PlaybackError(.cancelled))
            }
        }
    }
}
