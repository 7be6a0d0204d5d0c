import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A private Prometheus (Debian's `prometheus`) for one test, on 127.0.0.1 and a reserved port,
/// with its own data folder, scraping the given targets every second. Its query API is what the
/// test reads, as an operator's dashboard would. When it is missing or does not come up, `init`
/// throws with its log.
package final class PrometheusServer: @unchecked Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package let directory: String
    package var port: Int { reservation.port }
    private let reservation: PortReservation
    private var child: ChildProcess?

    /// - Parameter targets: `HOST:PORT` of each exporter, scraped at `/metrics` as job `tonearm`.
    package init(scraping targets: [String], startTimeout: Double = 30) throws {
        var template = Array("/tmp/tprom-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(description: "PrometheusServer: mkdtemp failed")
        }
        directory = String(cString: made)
        reservation = try PortReservation()
        do {
            let config = """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                  evaluation_interval: 1s
                scrape_configs:
                  - job_name: tonearm
                    static_configs:
                      - targets: [\(targets.map { "'\($0)'" }.joined(separator: ", "))]

                """
            try config.write(toFile: "\(directory)/prometheus.yml", atomically: true, encoding: .utf8)
            let executable = try SnapServer.which("prometheus")
            let started = try ChildProcess(
                executable,
                [
                    "--config.file=\(directory)/prometheus.yml", "--storage.tsdb.path=\(directory)/data",
                    "--web.listen-address=127.0.0.1:\(reservation.port)", "--log.level=warn",
                ],
                environment: ProcessInfo.processInfo.environment, stdout: "\(directory)/out", stderr: "\(directory)/err")
            child = started
            let ready = URL(string: "http://127.0.0.1:\(reservation.port)/-/ready")!
            let up = eventuallyBlocking(timeout: startTimeout, every: .milliseconds(100)) {
                started.exitStatus != nil || Self.status(of: ready) == 200
            }
            guard up, started.exitStatus == nil else { throw Failure(description: "prometheus did not come up: \(log())") }
        } catch {
            stop()
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The samples of an instant query through the HTTP API (`/api/v1/query`): each series'
    /// labels and value; empty when nothing matches yet.
    package func query(_ expression: String) throws -> [(labels: [String: String], value: Double)] {
        var components = URLComponents(string: "http://127.0.0.1:\(reservation.port)/api/v1/query")!
        components.queryItems = [URLQueryItem(name: "query", value: expression)]
        let data = try Self.fetch(components.url!)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], object["status"] as? String == "success",
            let result = (object["data"] as? [String: Any])?["result"] as? [[String: Any]]
        else { throw Failure(description: "query \(expression): \(String(decoding: data, as: UTF8.self))") }
        return result.map { series in
            let labels = series["metric"] as? [String: String] ?? [:]
            let value = ((series["value"] as? [Any])?.last as? String).flatMap(Double.init) ?? .nan
            return (labels, value)
        }
    }

    package func stop() {
        guard let child, child.exitStatus == nil else { return }
        child.send(SIGTERM)
        if child.wait(timeout: 10) == nil {
            child.send(SIGKILL)
            _ = child.wait(timeout: 5)
        }
    }

    package func log() -> String {
        let parts = ["err", "out"].map { (try? String(contentsOfFile: "\(directory)/\($0)", encoding: .utf8)) ?? "" }
        return String(parts.joined(separator: "\n").suffix(4_000))
    }

    private static func status(of url: URL) -> Int? {
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: url) { _, response, _ in
            answer.set((response as? HTTPURLResponse)?.statusCode)
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 5)
        return answer.status
    }

    private static func fetch(_ url: URL) throws -> Data {
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: url) { data, _, error in
            answer.set(data: data, error: error)
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 10) == .success, let data = answer.data else {
            throw Failure(description: "GET \(url): \(answer.error.map { "\($0)" } ?? "no answer")")
        }
        return data
    }

    private final class Answer: @unchecked Sendable {
        private let lock = NSLock()
        private var _status: Int?
        private var _data: Data?
        private var _error: (any Error)?
        var status: Int? { lock.withLock { _status } }
        var data: Data? { lock.withLock { _data } }
        var error: (any Error)? { lock.withLock { _error } }
        func set(_ status: Int?) { lock.withLock { _status = status } }
        func set(data: Data?, error: (any Error)?) { lock.withLock { (_data, _error) = (data, error) } }
    }
}
