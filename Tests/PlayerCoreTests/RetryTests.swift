import Clocks
import Foundation
import Synchronization
import Testing
@testable import PlayerCore

// MARK: - Fixtures shared by the resilience tests

/// A thread-safe box for counters and logs written from `@Sendable` closures.
final class ResilBox<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value { storage.withLock { $0 } }
    func update<R>(_ body: (inout Value) -> R) -> R { storage.withLock { body(&$0) } }
}

/// Wraps a clock and records every requested sleep, so a test knows a retry is waiting (and for
/// how long) before it advances a `TestClock`. With `ImmediateClock` it never waits at all.
final class ResilSpyClock<Base: Clock>: Clock, Sendable where Base.Duration == Swift.Duration {
    typealias Instant = Base.Instant
    let base: Base
    private let requested = Mutex<[Swift.Duration]>([])

    init(_ base: Base) { self.base = base }

    var now: Instant { base.now }
    var minimumResolution: Swift.Duration { base.minimumResolution }
    var sleeps: [Swift.Duration] { requested.withLock { $0 } }

    func sleep(until deadline: Instant, tolerance: Swift.Duration?) async throws {
        requested.withLock { $0.append(base.now.duration(to: deadline)) }
        try await base.sleep(until: deadline, tolerance: tolerance)
    }
}

/// Yields (never sleeps) until `condition` holds; false if it never did.
func resilEventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<100_000 {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// Runs a typed-throwing call; the `PlaybackError` in the result proves the throw stayed typed.
func resilCatching<T>(_ body: () async throws(PlaybackError) -> T) async -> Result<T, PlaybackError> {
    do { return .success(try await body()) } catch { return .failure(error) }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

// MARK: - Retry

@Suite("withRetry")
struct RetryTests {
    let transient = PlaybackError(.connectionLost)

    @Test func succeedsAfterTwoFailuresAndReportsEachScheduledRetry() async throws {
        let clock = ResilSpyClock(ImmediateClock())
        let calls = ResilBox(0)
        let reports = ResilBox<[RetryAttemptReport]>([])
        let policy = BackoffPolicy.network
        let value = try await withRetry("feed", policy: policy, clock: clock, random: SeededRandom(seed: 7),
                                        onRetry: { r in reports.update { $0.append(r) } }) {
            let n = calls.update { $0 += 1; return $0 }
            if n <= 2 { throw POSIXError(.ECONNRESET) }  // converted to connectionLost
            return "ok"
        }
        #expect(value == "ok")
        #expect(calls.value == 3)
        let seen = reports.value
        #expect(seen.map(\.attempt) == [2, 3])
        #expect(seen.allSatisfy { $0.maxAttempts == 3 && $0.operation == "feed" && $0.cause.code == .connectionLost })
        // The reported delays are the policy's, for the same seed, and are what the clock slept.
        var random = SeededRandom(seed: 7)
        let first = policy.delay(forRetry: 1, using: &random)
        let second = policy.delay(forRetry: 2, previous: first, using: &random)
        #expect(seen.map(\.delay) == [first, second])
        #expect(clock.sleeps == [.seconds(first), .seconds(second)])
        #expect(first >= 0.85 && first <= 1.15 && second >= 1.7 && second <= 2.3)
    }

    @Test func givesUpAfterMaxAttemptsWithTheLastError() async {
        let calls = ResilBox(0)
        let errors = [PlaybackError(.connectionLost), PlaybackError(.connectionTimeout), PlaybackError(.httpRetryable, httpStatus: 503)]
        let reports = ResilBox(0)
        let result = await resilCatching { () async throws(PlaybackError) -> Int in
            try await withRetry("feed", policy: .network, clock: ImmediateClock(), random: SeededRandom(seed: 1),
                                onRetry: { _ in reports.update { $0 += 1 } }) { () throws -> Int in
                let n = calls.update { $0 += 1; return $0 }
                throw errors[n - 1]
            }
        }
        #expect(result.failureValue == PlaybackError(.httpRetryable, httpStatus: 503))
        #expect(calls.value == 3)
        #expect(reports.value == 2)
    }

    @Test(arguments: [PlaybackError.Code.httpNotFound, .httpUnauthorized, .malformedData, .cancelled, .unknown])
    func stopsAtOnceOnANonRetryableError(code: PlaybackError.Code) async {
        let clock = ResilSpyClock(ImmediateClock())
        let calls = ResilBox(0)
        let result = await resilCatching { () async throws(PlaybackError) -> Int in
            try await withRetry("feed", policy: .critical, clock: clock, onRetry: { _ in Issue.record("no retry expected") }) { () throws -> Int in
                calls.update { $0 += 1 }
                throw PlaybackError(code)
            }
        }
        #expect(result.failureValue?.code == code)
        #expect(calls.value == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func convertsForeignErrorsBeforeDeciding() async {
        let calls = ResilBox(0)
        let result = await resilCatching { () async throws(PlaybackError) -> Int in
            try await withRetry("file", policy: .critical, clock: ImmediateClock()) { () throws -> Int in
                calls.update { $0 += 1 }
                throw POSIXError(.ENOENT)
            }
        }
        #expect(result.failureValue?.code == .fileNotFound)
        #expect(calls.value == 1)
    }

    @Test func retryAfterSecondsDelaysTheRetryUntilTheServerSays() async throws {
        let test = TestClock()
        let clock = ResilSpyClock(test)
        let calls = ResilBox(0)
        let reports = ResilBox<[RetryAttemptReport]>([])
        let policy = BackoffPolicy(maxAttempts: 3, base: 1, cap: 1, strategy: .constant)
        let task = Task {
            try await withRetry("feed", policy: policy, clock: clock, onRetry: { r in reports.update { $0.append(r) } }) {
                let n = calls.update { $0 += 1; return $0 }
                if n == 1 { throw PlaybackError(.httpRetryable, httpStatus: 429, retryAfter: .seconds(10)) }
                return n
            }
        }
        try #require(await resilEventually { clock.sleeps.count == 1 })
        #expect(clock.sleeps == [.seconds(10)])
        #expect(reports.value.map(\.delay) == [10])
        await test.advance(by: .milliseconds(9_900))
        #expect(calls.value == 1, "retried before Retry-After")
        await test.advance(by: .milliseconds(100))
        #expect(try await task.value == 2)
        #expect(calls.value == 2)
        #expect(reports.value.map(\.attempt) == [2])
    }

    @Test func retryAfterHTTPDateIsMeasuredFromTheInjectedNow() async throws {
        let header = try #require(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT"))
        guard case .date(let date) = header else { Issue.record("not a date"); return }
        let now = date.addingTimeInterval(-20)
        let test = TestClock()
        let clock = ResilSpyClock(test)
        let calls = ResilBox(0)
        let policy = BackoffPolicy(maxAttempts: 2, base: 1, cap: 1, strategy: .constant)
        let task = Task {
            try await withRetry("feed", policy: policy, clock: clock, now: { now }) {
                let n = calls.update { $0 += 1; return $0 }
                if n == 1 { throw PlaybackError.from(httpStatus: 503, retryAfter: header)! }
                return n
            }
        }
        try #require(await resilEventually { clock.sleeps.count == 1 })
        #expect(clock.sleeps == [.seconds(20)])
        await test.advance(by: .milliseconds(19_900))
        #expect(calls.value == 1, "retried before the HTTP-date")
        await test.advance(by: .milliseconds(100))
        #expect(try await task.value == 2)
    }

    @Test func retryAfterNeverSpendsExtraAttempts() async {
        let clock = ResilSpyClock(ImmediateClock())
        let calls = ResilBox(0)
        let reports = ResilBox<[RetryAttemptReport]>([])
        let policy = BackoffPolicy(maxAttempts: 3, base: 1, cap: 1, strategy: .constant)
        let result = await resilCatching { () async throws(PlaybackError) -> Int in
            try await withRetry("feed", policy: policy, clock: clock, onRetry: { r in reports.update { $0.append(r) } }) { () throws -> Int in
                calls.update { $0 += 1 }
                throw PlaybackError(.httpRetryable, httpStatus: 503, retryAfter: .seconds(45))
            }
        }
        #expect(result.failureValue?.code == .httpRetryable)
        #expect(calls.value == 3)
        #expect(reports.value.map(\.attempt) == [2, 3])
        #expect(clock.sleeps == [.seconds(45), .seconds(45)])
    }

    @Test func aLongerBackoffWinsOverAShortRetryAfter() async throws {
        let clock = ResilSpyClock(ImmediateClock())
        let calls = ResilBox(0)
        let policy = BackoffPolicy(maxAttempts: 2, base: 3, cap: 3, strategy: .constant)
        _ = try await withRetry("feed", policy: policy, clock: clock) {
            if calls.update({ $0 += 1; return $0 }) == 1 { throw PlaybackError(.httpRetryable, httpStatus: 503, retryAfter: .seconds(1)) }
            return 0
        }
        #expect(clock.sleeps == [.seconds(3)])
    }

    @Test func cancellationDuringTheWaitEndsAtOnceWithCancelled() async throws {
        let test = TestClock()
        let clock = ResilSpyClock(test)
        let calls = ResilBox(0)
        let statistics = RetryStatistics()
        let policy = BackoffPolicy(maxAttempts: 5, base: 10, cap: 10, strategy: .constant)
        let task = Task {
            await resilCatching { () async throws(PlaybackError) -> Int in
                try await withRetry("stream", policy: policy, clock: clock, statistics: statistics) { () throws -> Int in
                    calls.update { $0 += 1 }
                    throw PlaybackError(.connectionLost)
                }
            }
        }
        try #require(await resilEventually { clock.sleeps.count == 1 })
        task.cancel()
        // Ends without the clock moving at all: no waiting out the backoff.
        let result = await task.value
        #expect(result.failureValue?.code == .cancelled)
        #expect(test.now == TestClock<Duration>.Instant())
        await test.advance(by: .seconds(100))
        #expect(calls.value == 1)
        #expect(clock.sleeps.count == 1)
        let snapshot = await statistics.snapshot(for: "stream")
        #expect(snapshot.cancellations == 1 && snapshot.failures == 0 && snapshot.attempts == 1)
    }

    @Test func cancellationBeforeTheFirstTryNeverCallsTheBody() async {
        let calls = ResilBox(0)
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            return await resilCatching { () async throws(PlaybackError) -> Int in
                try await withRetry("feed", policy: .network, clock: ImmediateClock()) { calls.update { $0 += 1; return $0 } }
            }
        }
        task.cancel()
        #expect(await task.value.failureValue?.code == .cancelled)
        #expect(calls.value == 0)
    }

    @Test func anEmptySharedBudgetStopsRetriesEarly() async {
        let budget = RetryBudget(capacity: 2, refillPerSecond: 0, clock: TestClock())
        let calls = ResilBox<[String: Int]>([:])
        let policy = BackoffPolicy(maxAttempts: 5, base: 1, cap: 1, strategy: .constant)
        func failing(_ op: String, _ code: PlaybackError.Code) async -> Result<Int, PlaybackError> {
            await resilCatching { () async throws(PlaybackError) -> Int in
                try await withRetry(op, policy: policy, clock: ImmediateClock(), budget: budget) { () throws -> Int in
                    calls.update { $0[op, default: 0] += 1 }
                    throw PlaybackError(code)
                }
            }
        }
        // The first operation spends both tokens: 1 try + 2 retries instead of 5 attempts.
        #expect(await failing("playlist", .connectionTimeout).failureValue?.code == .connectionTimeout)
        #expect(calls.value["playlist"] == 3)
        #expect(budget.available == 0)
        // Another operation of the same session now gets its first try only, and its own error.
        #expect(await failing("artwork", .connectionLost).failureValue?.code == .connectionLost)
        #expect(calls.value["artwork"] == 1)
    }

    @Test func statisticsCountAttemptsAndOutcomesPerOperation() async {
        let statistics = RetryStatistics()
        let clock = ImmediateClock()
        let policy = BackoffPolicy(maxAttempts: 3, base: 1, cap: 1, strategy: .constant)
        func run(_ op: String, failures: Int, error: PlaybackError = PlaybackError(.connectionLost)) async {
            let calls = ResilBox(0)
            _ = await resilCatching { () async throws(PlaybackError) -> Int in
                try await withRetry(op, policy: policy, clock: clock, statistics: statistics) {
                    if calls.update({ $0 += 1; return $0 }) <= failures { throw error }
                    return 0
                }
            }
        }
        await run("feed", failures: 0)
        await run("feed", failures: 0)
        await run("feed", failures: 1)
        await run("artwork", failures: 2)
        await run("artwork", failures: 3)
        await run("artwork", failures: 1, error: PlaybackError(.httpNotFound))
        #expect(await statistics.snapshot(for: "feed") == .init(attempts: 4, firstTrySuccesses: 2, successesAfterRetry: 1, failures: 0))
        #expect(await statistics.snapshot(for: "artwork") == .init(attempts: 7, firstTrySuccesses: 0, successesAfterRetry: 1, failures: 2, failuresAfterRetry: 1))
        #expect(await statistics.snapshot(for: "never") == .init())
        #expect(await statistics.snapshots().keys.sorted() == ["artwork", "feed"])
    }
}
