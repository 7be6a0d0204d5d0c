import Clocks
import Testing
@testable import PlayerCore

@Suite("Circuit breaker")
struct CircuitBreakerTests {
    let host = "radio.example"

    /// Fails `count` permitted calls for `key`.
    func fail(_ breaker: CircuitBreaker, _ key: String, times count: Int) throws {
        for _ in 0..<count {
            let permit = try #require(breaker.acquire(key))
            breaker.record(permit, .failure)
        }
    }

    func openBreaker(_ clock: TestClock<Duration>) throws -> CircuitBreaker {
        let breaker = CircuitBreaker(clock: clock)
        try fail(breaker, host, times: ResilienceDefaults.breakerFailureThreshold)
        #expect(breaker.state(for: host) == .open)
        return breaker
    }

    @Test func opensAfterFiveConsecutiveFailures() throws {
        let breaker = CircuitBreaker(clock: TestClock())
        #expect(ResilienceDefaults.breakerFailureThreshold == 5)
        try fail(breaker, host, times: 4)
        #expect(breaker.state(for: host) == .closed)
        try fail(breaker, host, times: 1)
        #expect(breaker.state(for: host) == .open)
        #expect(breaker.acquire(host) == nil)
        #expect(breaker.state(for: "other.example") == .closed, "keys are independent")
        #expect(breaker.acquire("other.example") != nil)
    }

    @Test func aSuccessResetsTheConsecutiveCount() throws {
        let breaker = CircuitBreaker(clock: TestClock())
        try fail(breaker, host, times: 4)
        breaker.record(try #require(breaker.acquire(host)), .success)
        try fail(breaker, host, times: 4)
        #expect(breaker.state(for: host) == .closed)
    }

    @Test func halfOpenAfterThirtySecondsAllowsExactlyOneProbeAndSuccessCloses() async throws {
        let clock = TestClock()
        let breaker = try openBreaker(clock)
        await clock.advance(by: .milliseconds(29_900))
        #expect(breaker.state(for: host) == .open)
        #expect(breaker.acquire(host) == nil)
        await clock.advance(by: .milliseconds(100))
        #expect(breaker.state(for: host) == .halfOpen)
        let probe = try #require(breaker.acquire(host))
        #expect(probe.isProbe)
        #expect(breaker.acquire(host) == nil, "a second request while the probe runs is refused")
        #expect(breaker.state(for: host) == .halfOpen)
        breaker.record(probe, .success)
        #expect(breaker.state(for: host) == .closed)
        let next = try #require(breaker.acquire(host))
        #expect(!next.isProbe)
    }

    @Test func aFailedProbeReopensForAnotherOpenPeriod() async throws {
        let clock = TestClock()
        let breaker = try openBreaker(clock)
        await clock.advance(by: .seconds(30))
        let probe = try #require(breaker.acquire(host))
        await clock.advance(by: .seconds(2))
        breaker.record(probe, .failure)
        #expect(breaker.state(for: host) == .open)
        #expect(breaker.acquire(host) == nil)
        await clock.advance(by: .milliseconds(29_900))
        #expect(breaker.acquire(host) == nil)
        await clock.advance(by: .milliseconds(100))
        #expect(try #require(breaker.acquire(host)).isProbe)
    }

    @Test func aProbeThatNeverCompletesTimesOutAndReopens() async throws {
        let clock = TestClock()
        let breaker = try openBreaker(clock)
        await clock.advance(by: .seconds(30))
        let probe = try #require(breaker.acquire(host))
        await clock.advance(by: .milliseconds(9_900))
        #expect(breaker.state(for: host) == .halfOpen)
        #expect(breaker.acquire(host) == nil)
        await clock.advance(by: .milliseconds(100))
        // The probe's 10 s are up: counted as failed, the breaker is open again (not stuck).
        #expect(ResilienceDefaults.breakerProbeTimeout == 10)
        #expect(breaker.acquire(host) == nil)
        #expect(breaker.state(for: host) == .open)
        // A late answer from the timed-out probe changes nothing.
        breaker.record(probe, .success)
        #expect(breaker.state(for: host) == .open)
        // A new open period from the timeout, then a new probe.
        await clock.advance(by: .milliseconds(29_900))
        #expect(breaker.acquire(host) == nil)
        await clock.advance(by: .milliseconds(100))
        #expect(try #require(breaker.acquire(host)).isProbe)
    }

    @Test func anAbandonedProbeFreesTheSlot() async throws {
        let clock = TestClock()
        let breaker = try openBreaker(clock)
        await clock.advance(by: .seconds(30))
        breaker.record(try #require(breaker.acquire(host)), .abandoned)
        #expect(breaker.state(for: host) == .halfOpen)
        #expect(try #require(breaker.acquire(host)).isProbe)
    }

    @Test func lateResultsOfCallsFromBeforeTheOpeningAreIgnored() throws {
        let breaker = CircuitBreaker(clock: TestClock())
        let early = try #require(breaker.acquire(host))
        try fail(breaker, host, times: 5)
        breaker.record(early, .success)
        #expect(breaker.state(for: host) == .open)
    }

    // MARK: withRetry + breaker

    @Test func withRetryFailsFastWhileOpenWithoutCallingTheBody() async throws {
        let clock = TestClock()
        let breaker = CircuitBreaker(clock: clock)
        let calls = ResilBox(0)
        let policy = BackoffPolicy(maxAttempts: 5, base: 1, cap: 1, strategy: .constant)
        let first = await resilCatching { () async throws(PlaybackError) -> Int in
            try await withRetry("stream", policy: policy, clock: ImmediateClock(), breaker: breaker, breakerKey: host) { () throws -> Int in
                calls.update { $0 += 1 }
                throw PlaybackError(.connectionFailed)
            }
        }
        #expect(first.failureValue?.code == .connectionFailed)
        #expect(calls.value == 5)
        #expect(breaker.state(for: host) == .open)

        let second = await resilCatching { () async throws(PlaybackError) -> Int in
            try await withRetry("artwork", policy: policy, clock: ImmediateClock(), breaker: breaker, breakerKey: host) { () throws -> Int in
                calls.update { $0 += 1 }
                return 1
            }
        }
        #expect(second.failureValue?.code == .circuitOpen)
        #expect(second.failureValue?.host == host)
        #expect(second.failureValue?.underlying?.contains("circuit open") == true)
        #expect(calls.value == 5, "fail fast: the body was not called")
    }

    @Test func nonRetryableAnswersDoNotOpenTheBreaker() async {
        let breaker = CircuitBreaker(clock: TestClock())
        for _ in 0..<10 {
            _ = await resilCatching { () async throws(PlaybackError) -> Int in
                try await withRetry("feed", policy: .network, clock: ImmediateClock(), breaker: breaker, breakerKey: host) { () throws -> Int in
                    throw PlaybackError(.httpNotFound, httpStatus: 404)
                }
            }
        }
        #expect(breaker.state(for: host) == .closed)
    }

    @Test func oneConcurrentProbeThroughWithRetryThenClosed() async throws {
        let clock = TestClock()
        let breaker = try openBreaker(clock)
        await clock.advance(by: .seconds(30))
        let gate = AsyncStream<Void>.makeStream()
        let probeStarted = ResilBox(false)
        let probe = Task {
            try await withRetry("stream", policy: .quick, clock: ImmediateClock(), breaker: breaker, breakerKey: host) {
                probeStarted.update { $0 = true }
                for await _ in gate.stream { break }
                return "probe"
            }
        }
        try #require(await resilEventually { probeStarted.value })
        let otherCalls = ResilBox(0)
        let refused = await resilCatching { () async throws(PlaybackError) -> Int in
            try await withRetry("artwork", policy: .quick, clock: ImmediateClock(), breaker: breaker, breakerKey: host) { () throws -> Int in
                otherCalls.update { $0 += 1 }
                return 1
            }
        }
        #expect(refused.failureValue?.code == .circuitOpen)
        #expect(otherCalls.value == 0)
        gate.continuation.yield(())
        #expect(try await probe.value == "probe")
        #expect(breaker.state(for: host) == .closed)
    }

    @Test func aHungProbeThroughWithRetryDoesNotKeepTheBreakerHalfOpen() async throws {
        let clock = TestClock()
        let breaker = try openBreaker(clock)
        await clock.advance(by: .seconds(30))
        let gate = AsyncStream<Void>.makeStream()
        let probeStarted = ResilBox(false)
        let probe = Task {
            await resilCatching { () async throws(PlaybackError) -> Int in
                try await withRetry("stream", policy: .quick, clock: ImmediateClock(), breaker: breaker, breakerKey: host) { () throws -> Int in
                    probeStarted.update { $0 = true }
                    for await _ in gate.stream {}  // never answers
                    try Task.checkCancellation()
                    return 1
                }
            }
        }
        try #require(await resilEventually { probeStarted.value })
        await clock.advance(by: .seconds(10))
        #expect(breaker.state(for: host) == .open)
        #expect(breaker.acquire(host) == nil)
        probe.cancel()
        #expect(await probe.value.failureValue?.code == .cancelled)
        #expect(breaker.state(for: host) == .open, "the stale probe's end changes nothing")
        _ = gate
    }
}
