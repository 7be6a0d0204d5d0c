import PlayerCore

/// What the process's circuit breakers, retry budget and transfers look like at one moment. The
/// app reads them from its registries when a scrape comes (`PlayerMetrics.sample`); every key is
/// a class or a kind, never a host.
package struct ProcessSample: Sendable, Hashable {
    /// Every host class with its breakers' standing.
    package var breakers: [HostClass: HostCircuitBreakers.ClassCensus]
    package var budget: RetryBudget.Usage
    /// Tokens the retry budget holds now.
    package var budgetTokens: Double
    /// Bytes received since the process began, by how they were asked for (`stream`, `download`, `request`).
    package var receivedBytes: [String: Int]
    /// Downloads ended since the process began, by outcome (`completed`, `failed`).
    package var downloads: [String: Int]

    package init(
        breakers: [HostClass: HostCircuitBreakers.ClassCensus], budget: RetryBudget.Usage, budgetTokens: Double,
        receivedBytes: [String: Int], downloads: [String: Int]
    ) {
        self.breakers = breakers
        self.budget = budget
        self.budgetTokens = budgetTokens
        self.receivedBytes = receivedBytes
        self.downloads = downloads
    }
}

/// What a sample means for the metrics: gauges set to what it says, and counters moved on by what
/// its totals gained since the last sample (swift-metrics counters only go up, by an amount).
/// Pure, like `PlayerMetricsReading`.
package struct ProcessMetricsReading: Sendable {
    private var totals: [PlayerMetricsReading.Change.Series: Int64] = [:]

    package init() {}

    package mutating func observe(_ sample: ProcessSample) -> [PlayerMetricsReading.Change] {
        var changes: [PlayerMetricsReading.Change] = [.set(.retryBudgetTokens, to: sample.budgetTokens)]
        for (hostClass, census) in sample.breakers.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let label = MetricLabel("class", hostClass.rawValue)
            changes.append(.set(.circuitBreakers, labels: [label, MetricLabel("state", "open")], to: Double(census.open)))
            changes.append(.set(.circuitBreakers, labels: [label, MetricLabel("state", "half_open")], to: Double(census.halfOpen)))
            changes += total(.circuitBreakerTrips, [label], census.trips)
        }
        changes += total(.retriesSpent, [], sample.budget.spent)
        changes += total(.retriesRefused, [], sample.budget.refused)
        for (kind, bytes) in sample.receivedBytes.sorted(by: { $0.key < $1.key }) {
            changes += total(.receivedBytes, [MetricLabel("kind", kind)], bytes)
        }
        for (outcome, count) in sample.downloads.sorted(by: { $0.key < $1.key }) {
            changes += total(.downloads, [MetricLabel("outcome", outcome)], count)
        }
        return changes
    }

    /// The counter's move to `value`: the first sample makes the series (at its total, maybe 0);
    /// later ones add the gain. A total that went down (a registry made anew) adds nothing.
    private mutating func total(_ metric: PlayerMetric, _ labels: [MetricLabel], _ value: Int) -> [PlayerMetricsReading.Change] {
        let series = PlayerMetricsReading.Change.Series(metric: metric, labels: labels)
        let before = totals[series]
        totals[series] = max(before ?? 0, Int64(value))
        guard let before else { return [.add(metric, labels: labels, by: Int64(max(0, value)))] }
        return value > before ? [.add(metric, labels: labels, by: Int64(value) - before)] : []
    }
}
