import Clocks
import Testing

@testable import PlayerCore

/// The host class of a breaker key: by address range for literals, by suffix for names, with no
/// DNS; the port and IPv6 brackets do not change the answer.
@Suite("Host class")
struct HostClassTests {
    @Test(arguments: [
        ("127.0.0.1:8000", HostClass.loopback), ("127.4.5.6", .loopback), ("localhost:631", .loopback), ("radio.localhost", .loopback),
        ("[::1]:8000", .loopback), ("0.0.0.0", .loopback),
        ("10.0.0.7:8000", .local), ("172.16.0.1", .local), ("172.31.255.255", .local), ("192.168.1.20:8000", .local),
        ("169.254.3.4", .local), ("100.64.0.1", .local), ("[fd12:3456::1]:8000", .local), ("[fe80::1]", .local),
        ("[::ffff:192.168.0.2]", .local), ("nas.local", .local), ("nas.lan:8000", .local), ("router.home.arpa", .local),
        ("db.internal", .local), ("nas", .local), ("nas:8000", .local),
        ("radio.example.com", .internet), ("stream.example:8443", .internet), ("8.8.8.8", .internet), ("172.32.0.1", .internet),
        ("192.169.0.1", .internet), ("[2001:db8::1]:8000", .internet), ("[::ffff:8.8.8.8]", .internet),
        ("1.2.3.4.5", .internet), ("256.1.1.1", .internet), ("local.example.com", .internet),
    ])
    func aKeyIsClassedByItsHostAlone(key: String, expected: HostClass) {
        #expect(HostClass(breakerKey: key) == expected, "\(key)")
    }

    @Test func aNameThatLooksLikeAnAddressIsNotOne() {
        #expect(HostClass(breakerKey: "10.0.0.7.example.com") == .internet)
        #expect(HostClass(breakerKey: "+10.0.0.7") == .internet, "not four plain numbers")
        #expect(HostClass(breakerKey: "10.0.0.") == .internet)
    }
}

/// What the breakers tell metrics: how many hosts of each class are refused now, and how often
/// breakers opened, whoever recorded the failures.
@Suite("Host circuit breakers: census")
struct HostCircuitBreakersCensusTests {
    func fail(_ breakers: HostCircuitBreakers, host: String, times: Int) throws {
        for _ in 0..<times {
            let permit = try breakers.permit(host: host)
            breakers.record(permit, error: PlaybackError(.connectionLost))
        }
    }

    @Test func everyClassIsThereAndOpenHostsAreCountedByClass() async throws {
        let clock = TestClock()
        let breakers = HostCircuitBreakers(clock: clock)
        var census = breakers.census()
        #expect(Set(census.keys) == Set(HostClass.allCases))
        #expect(census.values.allSatisfy { $0 == HostCircuitBreakers.ClassCensus() })

        try fail(breakers, host: "radio.example", times: 5)
        try fail(breakers, host: "other.example", times: 5)
        try fail(breakers, host: "192.168.1.2:8000", times: 4)  // one short of opening
        census = breakers.census()
        #expect(census[.internet] == HostCircuitBreakers.ClassCensus(open: 2, halfOpen: 0, trips: 2))
        #expect(census[.local] == HostCircuitBreakers.ClassCensus(), "failures short of the threshold open nothing")

        // The cool-down ends: half-open; the probe fails: open again, a second trip.
        await clock.advance(by: .seconds(ResilienceDefaults.breakerOpenDuration))
        #expect(breakers.census()[.internet] == HostCircuitBreakers.ClassCensus(open: 0, halfOpen: 2, trips: 2))
        try fail(breakers, host: "radio.example", times: 1)
        #expect(breakers.census()[.internet] == HostCircuitBreakers.ClassCensus(open: 1, halfOpen: 1, trips: 3))
        // The other's probe succeeds: closed, gone from the census; trips stay counted.
        breakers.record(try breakers.permit(host: "other.example"), .success)
        #expect(breakers.census()[.internet] == HostCircuitBreakers.ClassCensus(open: 1, halfOpen: 0, trips: 3))
    }

    @Test func tripsRecordedThroughWithRetryAreCountedToo() async {
        let breakers = HostCircuitBreakers(clock: TestClock())
        let policy = BackoffPolicy(maxAttempts: 5, base: 1, cap: 1, strategy: .constant)
        _ = await resilCatching { () async throws(PlaybackError) -> Int in
            try await withRetry("podcastFeed", policy: policy, clock: ImmediateClock(), breaker: breakers.breaker, breakerKey: "127.0.0.1:9") {
                () throws -> Int in throw PlaybackError(.connectionLost)
            }
        }
        #expect(breakers.census()[.loopback] == HostCircuitBreakers.ClassCensus(open: 1, halfOpen: 0, trips: 1))
    }
}
