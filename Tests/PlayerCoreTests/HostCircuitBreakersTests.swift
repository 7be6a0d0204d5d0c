import Clocks
import Foundation
import Presentation
import Testing

@testable import PlayerCore

/// The per-host breaker registry: keys, independence of hosts, the typed refusal that names the
/// host and when it is tried again, the cool-down on a test clock, and `withRetry` using it.
@Suite("Host circuit breakers")
struct HostCircuitBreakersTests {
    static let dead = URL(string: "http://dead.example:8000/feed.xml?token=SECRET")!
    static let alive = URL(string: "https://alive.example/feed.xml")!

    /// Fails `count` permitted calls to `url`'s host with a dropped connection.
    func fail(_ breakers: HostCircuitBreakers, _ url: URL, times count: Int) throws {
        for _ in 0..<count {
            let permit = try #require(try breakers.permit(for: url))
            breakers.record(permit, error: PlaybackError(.connectionLost))
        }
    }

    @Test func keysAreTheHostAndANonDefaultPortOnly() {
        #expect(HostCircuitBreakers.host(of: Self.dead) == "dead.example:8000")
        #expect(HostCircuitBreakers.host(of: URL(string: "https://user:pw@Feeds.Example.COM/a?b=c")!) == "feeds.example.com")
        #expect(HostCircuitBreakers.host(of: URL(string: "http://radio.example:80/live")!) == "radio.example")
        #expect(HostCircuitBreakers.host(of: URL(string: "https://radio.example:443/live")!) == "radio.example")
        #expect(HostCircuitBreakers.host(of: URL(string: "http://127.0.0.1:41234/x")!) == "127.0.0.1:41234")
        #expect(HostCircuitBreakers.host(of: URL(fileURLWithPath: "/home/someone/a.mp3")) == nil)
    }

    @Test func oneOpenHostDoesNotAffectAnother() throws {
        let breakers = HostCircuitBreakers(clock: TestClock())
        try fail(breakers, Self.dead, times: ResilienceDefaults.breakerFailureThreshold - 1)
        #expect(breakers.state(of: "dead.example:8000") == .closed)
        try fail(breakers, Self.dead, times: 1)
        #expect(breakers.state(of: "dead.example:8000") == .open)

        // The other host is untouched, and so is the same name on another port.
        #expect(try breakers.permit(for: Self.alive) != nil)
        #expect(breakers.state(of: "alive.example") == .closed)
        #expect(try breakers.permit(for: URL(string: "http://dead.example:9000/")!) != nil)

        // The refused host gets a typed error with the host (no path, no query) and the wait.
        do {
            _ = try breakers.permit(for: Self.dead)
            Issue.record("an open breaker let a call through")
        } catch {
            #expect(error.code == .circuitOpen)
            #expect(error.host == "dead.example:8000")
            #expect(error.retryAfter == .seconds(ResilienceDefaults.breakerOpenDuration))
            #expect(error.category == .network && error.errorType == "Network.circuitOpen")
            let text = error.text(in: .english)
            #expect(!(text.title + text.message + text.recoverySuggestion).contains("SECRET"))
            #expect(!(text.message + text.recoverySuggestion).contains("feed.xml"))
        }
    }

    @Test func halfOpenAfterTheCoolDownOnATestClock() async throws {
        let clock = TestClock()
        let breakers = HostCircuitBreakers(clock: clock)
        try fail(breakers, Self.dead, times: 5)
        await clock.advance(by: .seconds(12))
        #expect(breakers.secondsUntilPermitted(host: "dead.example:8000") == 18)
        #expect(throws: PlaybackError.self) { try breakers.permit(for: Self.dead) }
        await clock.advance(by: .seconds(18))
        #expect(breakers.state(of: "dead.example:8000") == .halfOpen)
        let probe = try #require(try breakers.permit(for: Self.dead))
        #expect(probe.isProbe)
        // While the probe runs, others are refused until its timeout at the latest.
        do {
            _ = try breakers.permit(for: Self.dead)
            Issue.record("a second call went through during the probe")
        } catch {
            #expect(error.retryAfter == .seconds(ResilienceDefaults.breakerProbeTimeout))
        }
        breakers.record(probe, .success)
        #expect(breakers.state(of: "dead.example:8000") == .closed)
        #expect(try breakers.permit(for: Self.dead)?.isProbe == false)
    }

    @Test func aConnectionReportsOnceWhicheverCallbackComesFirst() throws {
        let breakers = HostCircuitBreakers(failureThreshold: 1, clock: TestClock())
        let connection = try #require(try breakers.connection(to: Self.alive))
        connection.connected()
        connection.failed(PlaybackError(.connectionLost))  // a later drop: not a connection failure
        connection.abandoned()
        #expect(breakers.state(of: "alive.example") == .closed)
        let failing = try #require(try breakers.connection(to: Self.alive))
        failing.failed(PlaybackError(.connectionTimeout))
        failing.connected()
        #expect(breakers.state(of: "alive.example") == .open)
    }

    @Test func outcomesSayWhatAnErrorTellsAboutTheHost() {
        #expect(CircuitBreaker.Outcome(PlaybackError(.connectionLost)) == .failure)
        #expect(CircuitBreaker.Outcome(PlaybackError(.connectionFailed)) == .failure)
        #expect(CircuitBreaker.Outcome(PlaybackError(.httpRetryable, httpStatus: 503)) == .failure)
        #expect(CircuitBreaker.Outcome(PlaybackError(.httpNotFound, httpStatus: 404)) == .success)
        #expect(CircuitBreaker.Outcome(PlaybackError(.invalidFeed)) == .success)
        #expect(CircuitBreaker.Outcome(PlaybackError(.cancelled)) == .abandoned)
        #expect(CircuitBreaker.Outcome(PlaybackError(.offline)) == .abandoned)
        #expect(CircuitBreaker.Outcome(PlaybackError.circuitOpen(host: "a.example", retryIn: 3)) == .abandoned)
    }

    @Test func withRetryStopsAtAnOpenHostWithoutCallingTheBody() async throws {
        let breakers = HostCircuitBreakers(clock: TestClock())
        let calls = ResilBox(0)
        let policy = BackoffPolicy(maxAttempts: 3, base: 1, cap: 1, strategy: .constant)
        var results: [PlaybackError.Code] = []
        for _ in 0..<4 {
            let result = await resilCatching { () async throws(PlaybackError) -> Int in
                try await withRetry(
                    "podcastFeed", policy: policy, clock: ImmediateClock(), breaker: breakers.breaker, breakerKey: "dead.example"
                ) { () throws -> Int in
                    calls.update { $0 += 1 }
                    throw PlaybackError(.connectionLost)
                }
            }
            results.append(result.failureValue?.code ?? .unknown)
        }
        // 3 + 2 failed tries open the breaker; the second run's refused retry ends with its own
        // error, the later runs are refused before any call.
        #expect(calls.value == 5)
        #expect(results == [.connectionLost, .connectionLost, .circuitOpen, .circuitOpen])
    }
}

/// Retry budgets end retries with the error that caused them; statistics summarise per operation.
@Suite("Retry budget and statistics")
struct RetryBudgetAndStatisticsTests {
    @Test func aSpentBudgetEndsRetriesWithTheCausingError() async {
        let budget = RetryBudget(capacity: 1, refillPerSecond: 0, clock: TestClock())
        let calls = ResilBox(0)
        let policy = BackoffPolicy(maxAttempts: 5, base: 1, cap: 1, strategy: .constant)
        let result = await resilCatching { () async throws(PlaybackError) -> Int in
            try await withRetry("podcastFeed", policy: policy, clock: ImmediateClock(), budget: budget) { () throws -> Int in
                calls.update { $0 += 1 }
                throw PlaybackError(.httpRetryable, httpStatus: 503)
            }
        }
        #expect(calls.value == 2, "one first try and the one retry the budget had")
        #expect(result.failureValue == PlaybackError(.httpRetryable, httpStatus: 503))
    }

    @Test func theSummaryGivesTheRetrySuccessRatePerOperation() async throws {
        let store = InMemoryRetryStatisticsStore()
        let statistics = RetryStatistics(store: store)
        await statistics.record(operation: "podcastFeed", attempts: 1, outcome: .success)
        await statistics.record(operation: "podcastFeed", attempts: 3, outcome: .success)
        await statistics.record(operation: "podcastFeed", attempts: 3, outcome: .failure)
        await statistics.record(operation: "podcastFeed", attempts: 2, outcome: .success)
        await statistics.record(operation: "artwork", attempts: 1, outcome: .failure)
        await statistics.record(operation: "artwork", attempts: 2, outcome: .cancelled)

        let summary = await statistics.summary()
        #expect(summary.operations.map(\.operation) == ["artwork", "podcastFeed"])
        let feed = try #require(summary.operations.last)
        #expect(feed.runs == 4 && feed.attempts == 9 && feed.retriedRuns == 3 && feed.successesAfterRetry == 2)
        #expect(feed.retrySuccessRate == 2.0 / 3.0)
        // A failure without a retry and a cancellation say nothing about retries.
        #expect(summary.operations.first?.retrySuccessRate == nil)
        #expect(summary.retriedRuns == 3 && summary.retrySuccessRate == 2.0 / 3.0)
        #expect(RetryStatisticsSummary.empty.retrySuccessRate == nil)

        // The store holds the same totals, so a later run (a new process) reads them back.
        #expect(try await RetryStatistics(store: store).persistedSummary() == summary)
        // Operation names that are not identifiers never reach the store as given.
        await statistics.record(operation: "https://feeds.example/secret", attempts: 1, outcome: .success)
        #expect(await store.totals().keys.map(\.rawValue).sorted() == ["artwork", "other", "podcastFeed"])
    }
}
