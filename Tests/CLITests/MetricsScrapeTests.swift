import Foundation
import TestProcesses
import Testing

/// `tonearm serve --metrics`, scraped by a real Prometheus (Debian's) started on loopback: a
/// station that keeps dropping shows in the query API as a reconnect counter that rises, errors by
/// code and category, and the state; and no series or label names the station.
@Suite("tonearm serve --metrics: scraped by Prometheus", .serialized, .blocking)
struct MetricsScrapeTests {
    /// The metrics address the daemon reports in its info file, once it does.
    static func metricsAddress(of daemon: ServeDaemon) throws -> String {
        let file = daemon.runtime.appendingPathComponent("tonearm/daemon.json")
        var address: String?
        _ = eventuallyBlocking(timeout: 30) {
            guard let data = try? Data(contentsOf: file),
                let info = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let endpoints = info["endpoints"] as? [[String: Any]],
                let metrics = endpoints.first(where: { $0["service"] as? String == "metrics" })?["address"] as? String
            else { return false }
            address = metrics
            return true
        }
        let url = try #require(address.flatMap(URL.init(string:)), "no metrics endpoint in daemon.json: \(daemon.stderr)")
        #expect(url.path == "/metrics" && url.host == "127.0.0.1", "\(url)")
        return "\(url.host ?? ""):\(url.port ?? 0)"
    }

    @Test func prometheusSeesTheReconnectsOfAStationThatKeepsDropping() throws {
        // Two seconds of audio, then the connection closes: for a station, every close is a drop.
        let tone = { (i: Int) in Int16(3_000 * sin(Double(i) * 2 * .pi * 440 / 48_000)) }
        let audio = PCMWAV.data(frames: 48_000 * 2, left: tone, right: tone)
        let station = try TestHTTPServer { _ in .complete(contentType: "audio/wav", body: audio) }
        defer { station.stop() }
        let music = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: music) }
        let daemon = try ServeDaemon(["--metrics", "127.0.0.1:0", station.url("/live.wav").absoluteString], music: music)
        defer { daemon.stop() }
        let target = try Self.metricsAddress(of: daemon)
        let prometheus = try PrometheusServer(scraping: [target])
        defer { prometheus.stop() }
        func value(_ query: String) -> Double? { (try? prometheus.query(query))?.first?.value }
        func failure(_ what: String) -> Comment { "\(what)\nprometheus: \(prometheus.log())\ndaemon: \(daemon.logTail)" }

        #expect(eventuallyBlocking(timeout: 30) { value("up{job=\"tonearm\"}") == 1 }, failure("the target is never up"))
        var first: Double?
        #expect(eventuallyBlocking(timeout: 60) {
            first = value("tonearm_reconnects_total").flatMap { $0 >= 1 ? $0 : nil }
            return first != nil
        }, failure("no reconnect counted"))
        let counted = try #require(first)
        #expect(eventuallyBlocking(timeout: 60) { (value("tonearm_reconnects_total") ?? 0) > counted }, failure("the counter never rose past \(counted)"))
        #expect((value("tonearm_plays_total") ?? 0) >= 1, failure("no play counted"))
        #expect((value("increase(tonearm_reconnects_total[1m])") ?? 0) > 0, failure("no increase over a minute"))

        // The drop's errors, by code and category only.
        let errors = try prometheus.query("tonearm_errors_total")
        #expect(!errors.isEmpty, failure("no error series"))
        for series in errors {
            #expect(Set(series.labels.keys) == ["__name__", "job", "instance", "code", "category"], "\(series.labels)")
            #expect(series.labels["category"] == "network", "\(series.labels)")
        }
        // The process's side: the station's bytes, the breakers by host class, the retry budget.
        #expect((value("tonearm_received_bytes_total{kind=\"stream\"}") ?? 0) > 48_000 * 4, failure("the station's bytes are not counted"))
        let breakers = try prometheus.query("tonearm_circuit_breakers")
        #expect(Set(breakers.compactMap { $0.labels["class"] }) == ["loopback", "local", "internet"], "\(breakers)")
        #expect(value("tonearm_retry_budget_tokens") != nil, failure("no retry budget"))
        #expect(value("tonearm_downloads_total{outcome=\"completed\"}") == 0, failure("downloads where none were asked for"))
        // One state at a time.
        let states = try prometheus.query("tonearm_player_state == 1")
        #expect(states.count == 1, "\(states)")
        // Nothing scraped names the station: no label value holds its port, path or address.
        let everything = try prometheus.query("{job=\"tonearm\"}")
        #expect(everything.count > 10)
        for series in everything {
            for (name, labelValue) in series.labels where name != "instance" {
                #expect(!labelValue.contains("live.wav") && !labelValue.contains("\(station.port)"), "\(name)=\(labelValue)")
            }
        }
    }
}
