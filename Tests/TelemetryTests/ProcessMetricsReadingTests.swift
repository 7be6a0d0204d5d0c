import PlayerCore
import Telemetry
import Testing

/// Samples of the process's breakers, budget and transfers become gauges set to what they say and
/// counters moved on by what the totals gained, with no host in any label.
@Suite("Process metrics: reading the samples")
struct ProcessMetricsReadingTests {
    static func sample(
        open: Int = 0, trips: Int = 0, spent: Int = 0, refused: Int = 0, tokens: Double = 10, stream: Int = 0, completed: Int = 0
    ) -> ProcessSample {
        var breakers = Dictionary(uniqueKeysWithValues: HostClass.allCases.map { ($0, HostCircuitBreakers.ClassCensus()) })
        breakers[.internet] = HostCircuitBreakers.ClassCensus(open: open, halfOpen: 0, trips: trips)
        return ProcessSample(
            breakers: breakers, budget: RetryBudget.Usage(spent: spent, refused: refused), budgetTokens: tokens,
            receivedBytes: ["stream": stream, "download": 0, "request": 0], downloads: ["completed": completed, "failed": 0])
    }

    static func describe(_ changes: [PlayerMetricsReading.Change]) -> [String] {
        changes.map { change in
            switch change {
            case .count(let metric, let labels): (["+1", metric.rawValue] + labels.map { "\($0.name)=\($0.value)" }).joined(separator: " ")
            case .add(let metric, let labels, let by): (["+\(by)", metric.rawValue] + labels.map { "\($0.name)=\($0.value)" }).joined(separator: " ")
            case .set(let metric, let labels, let value): (["=\(value)", metric.rawValue] + labels.map { "\($0.name)=\($0.value)" }).joined(separator: " ")
            }
        }
    }

    @Test func theFirstSampleMakesEverySeriesAndLaterOnesAddTheGain() {
        var reading = ProcessMetricsReading()
        let first = Self.describe(reading.observe(Self.sample(stream: 1_000)))
        #expect(first.contains("=10.0 tonearm_retry_budget_tokens"))
        for hostClass in HostClass.allCases {
            #expect(first.contains("=0.0 tonearm_circuit_breakers class=\(hostClass.rawValue) state=open"))
            #expect(first.contains("=0.0 tonearm_circuit_breakers class=\(hostClass.rawValue) state=half_open"))
            #expect(first.contains("+0 tonearm_circuit_breaker_trips_total class=\(hostClass.rawValue)"))
        }
        #expect(first.contains("+0 tonearm_retry_budget_spent_total") && first.contains("+0 tonearm_retry_budget_refused_total"))
        #expect(first.contains("+1000 tonearm_received_bytes_total kind=stream") && first.contains("+0 tonearm_received_bytes_total kind=download"))
        #expect(first.contains("+0 tonearm_downloads_total outcome=completed") && first.contains("+0 tonearm_downloads_total outcome=failed"))

        let second = Self.describe(reading.observe(Self.sample(open: 1, trips: 2, spent: 3, refused: 1, tokens: 7.5, stream: 4_096, completed: 1)))
        #expect(second.filter { $0.hasPrefix("+") }.sorted() == [
            "+1 tonearm_downloads_total outcome=completed", "+1 tonearm_retry_budget_refused_total", "+2 tonearm_circuit_breaker_trips_total class=internet",
            "+3 tonearm_retry_budget_spent_total", "+3096 tonearm_received_bytes_total kind=stream",
        ])
        #expect(second.contains("=1.0 tonearm_circuit_breakers class=internet state=open"))
        #expect(second.contains("=7.5 tonearm_retry_budget_tokens"))

        // Nothing gained, nothing added; a total that went down adds nothing either.
        #expect(Self.describe(reading.observe(Self.sample(open: 1, trips: 2, spent: 3, refused: 1, tokens: 7.5, stream: 4_096, completed: 1)))
            .allSatisfy { $0.hasPrefix("=") })
        #expect(Self.describe(reading.observe(Self.sample(stream: 10))).allSatisfy { $0.hasPrefix("=") })
        #expect(Self.describe(reading.observe(Self.sample(stream: 5_000))).contains("+904 tonearm_received_bytes_total kind=stream"))
    }

    @Test func everySampledMetricIsServedAndTypedAsItBehaves() {
        var reading = ProcessMetricsReading()
        for change in reading.observe(Self.sample()) {
            switch change {
            case .count(let metric, _), .add(let metric, _, _): #expect(metric.isCounter && metric.rawValue.hasSuffix("_total"), "\(metric)")
            case .set(let metric, _, _): #expect(!metric.isCounter && !metric.rawValue.hasSuffix("_total"), "\(metric)")
            }
        }
    }
}
