import CoreMetrics
import PlayerCore
import Synchronization

/// The player's metrics on a swift-metrics backend the app plugs in (Prometheus for a scrape,
/// another factory for another system): the updates are read by `PlayerMetricsReading`, and each
/// change is applied to the counter or gauge it names, made once per set of labels.
package final class PlayerMetrics: Sendable {
    private struct Held {
        var reading = PlayerMetricsReading()
        var process = ProcessMetricsReading()
        var counters: [Key: Counter] = [:]
        var gauges: [Key: Gauge] = [:]
    }

    private typealias Key = PlayerMetricsReading.Change.Series

    private let factory: any MetricsFactory
    private let held = Mutex(Held())

    package init(factory: any MetricsFactory) {
        self.factory = factory
        // Every counter without labels exists from the start, at 0: a rate over a series that
        // appears only with its first event misses that event.
        held.withLock { held in
            for metric in PlayerMetric.allCases where metric.isPlainPlayerCounter {
                held.counters[Key(metric: metric, labels: [])] = Counter(label: metric.rawValue, dimensions: [], factory: factory)
            }
        }
    }

    /// Reads one player update; call it with every update, in order.
    package func observe(_ update: PlayerUpdate) {
        held.withLock { held in apply(held.reading.observe(update), to: &held) }
    }

    /// Reads the process's breakers, budget and transfers; call it before each scrape.
    package func sample(_ sample: ProcessSample) {
        held.withLock { held in apply(held.process.observe(sample), to: &held) }
    }

    private func apply(_ changes: [PlayerMetricsReading.Change], to held: inout Held) {
        for change in changes {
            switch change {
            case .count(let metric, let labels):
                counter(metric, labels, in: &held).increment()
            case .add(let metric, let labels, let amount):
                counter(metric, labels, in: &held).increment(by: amount)
            case .set(let metric, let labels, let value):
                let key = Key(metric: metric, labels: labels)
                let gauge = held.gauges[key] ?? Gauge(label: metric.rawValue, dimensions: Self.dimensions(labels), factory: factory)
                held.gauges[key] = gauge
                gauge.record(value)
            }
        }
    }

    private func counter(_ metric: PlayerMetric, _ labels: [MetricLabel], in held: inout Held) -> Counter {
        let key = Key(metric: metric, labels: labels)
        let counter = held.counters[key] ?? Counter(label: metric.rawValue, dimensions: Self.dimensions(labels), factory: factory)
        held.counters[key] = counter
        return counter
    }

    private static func dimensions(_ labels: [MetricLabel]) -> [(String, String)] { labels.map { ($0.name, $0.value) } }
}
