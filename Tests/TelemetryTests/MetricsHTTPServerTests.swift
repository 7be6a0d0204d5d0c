import Foundation
import Logging
import PlayerCore
import Prometheus
import Telemetry
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The registry served at `/metrics` in Prometheus's text format, from real player updates, and
/// nothing else served.
@Suite("Metrics over HTTP")
struct MetricsHTTPServerTests {
    static func get(_ url: URL, method: String = "GET") async throws -> (status: Int, type: String?, body: String) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, http.value(forHTTPHeaderField: "Content-Type"), String(decoding: data, as: UTF8.self))
    }

    @Test func aScrapeReadsTheCountersInTheTextFormat() async throws {
        let registry = PrometheusCollectorRegistry()
        let metrics = PlayerMetrics(factory: PrometheusMetricsFactory(registry: registry))
        let server = MetricsHTTPServer(registry: registry, logger: Logger(label: "test"))
        let port = try await server.start(host: "127.0.0.1", port: 0)
        let base = "http://127.0.0.1:\(port)"

        let first = try await Self.get(URL(string: base + "/metrics")!)
        #expect(first.status == 200)
        #expect(first.type?.hasPrefix("text/plain; version=0.0.4") == true, "\(String(describing: first.type))")
        #expect(first.body.contains("tonearm_reconnects_total 0"), "counters exist from the start:\n\(first.body)")

        let station = Track(id: "s", url: URL(string: "http://radio.example/live")!, kind: .liveStream)
        let lost = PlaybackError(.connectionLost)
        for update: PlayerUpdate in [
            .state(.playing(track: station), audioTime: 0, now: PlayerTime(seconds: 0)),
            .state(.reconnecting(track: station, attempt: 1, maxAttempts: 5, nextRetryAt: nil, cause: lost), audioTime: 1, now: PlayerTime(seconds: 1)),
        ] {
            metrics.observe(update)
        }
        let second = try await Self.get(URL(string: base + "/metrics?x=1")!)
        let lines = second.body.split(separator: "\n").map(String.init)
        #expect(lines.contains("tonearm_reconnects_total 1"), "\(second.body)")
        #expect(lines.contains("tonearm_plays_total 1"), "\(second.body)")
        #expect(lines.contains { $0.hasPrefix("tonearm_errors_total{") && $0.contains("code=\"connectionLost\"") && $0.hasSuffix(" 1") }, "\(second.body)")
        #expect(lines.contains("tonearm_player_state{state=\"reconnecting\"} 1.0"), "\(second.body)")
        #expect(lines.contains("tonearm_player_state{state=\"playing\"} 0.0"), "\(second.body)")
        #expect(!second.body.contains("radio.example"))

        #expect(try await Self.get(URL(string: base + "/")!).status == 404)
        #expect(try await Self.get(URL(string: base + "/metrics")!, method: "POST").status == 405)
        await server.stop()
        await #expect(throws: (any Error).self) { _ = try await Self.get(URL(string: base + "/metrics")!) }
    }
}
