import Foundation
import Logging
import PlayerCore
import PlayerKit
import Prometheus
import Streaming
import Synchronization
import Telemetry

/// The daemon's metrics for Prometheus (`--metrics`): every player update read into counters and
/// gauges (`PlayerMetrics` on a Prometheus registry of its own), and at each scrape the process's
/// circuit breakers, retry budget and transfers, served at `/metrics` on the address given. Off unless asked for; nothing in it names a station, a host or a listener.
package final class MetricsDaemonService: DaemonService {
    package let name = "metrics"
    private let host: String
    private let port: Int
    private let registry = PrometheusCollectorRegistry()
    private let metrics: PlayerMetrics
    private let server = Mutex<MetricsHTTPServer?>(nil)

    /// `host` and `port`: a TCP address (`DaemonOptions` refuses a unix socket for metrics; port 0
    /// takes any free one, which `start` reports).
    package init(host: String, port: Int) {
        self.host = host
        self.port = port
        metrics = PlayerMetrics(factory: PrometheusMetricsFactory(registry: registry))
    }

    package func start(_ context: DaemonContext) async throws(PlaybackError) -> [DaemonEndpoint] {
        let sample: @Sendable () -> Void = { [metrics, budget = context.session.retryBudget] in metrics.sample(Self.sample(budget: budget)) }
        sample()  // every series exists from the first scrape, at its value
        let made = MetricsHTTPServer(registry: registry, logger: context.logger, beforeScrape: sample)
        let bound: Int
        do {
            bound = try await made.start(host: host, port: port)
        } catch {
            throw PlaybackError(.connectionFailed, underlying: "metrics on \(ListenAddress.tcp(host: host, port: UInt16(port))): \(error)")
        }
        server.withLock { $0 = made }
        let shown = ListenAddress.tcp(host: host, port: UInt16(bound)).description
        return [DaemonEndpoint(service: name, address: "http://\(shown)/metrics")]
    }

    /// The process's breakers and transfers and the session's retry budget, now.
    static func sample(
        budget: RetryBudget, breakers: HostCircuitBreakers = .shared, transfers: TransferCounters = .shared
    ) -> ProcessSample {
        let moved = transfers.snapshot
        return ProcessSample(
            breakers: breakers.census(), budget: budget.usage, budgetTokens: budget.available,
            receivedBytes: Dictionary(uniqueKeysWithValues: moved.bytes.map { ($0.key.rawValue, $0.value) }),
            downloads: Dictionary(uniqueKeysWithValues: moved.downloads.map { ($0.key.rawValue, $0.value) }))
    }

    package func observe(_ update: PlayerUpdate) {
        metrics.observe(update)
    }

    package func stop() async {
        await server.withLock { server in
            defer { server = nil }
            return server
        }?.stop()
    }
}
