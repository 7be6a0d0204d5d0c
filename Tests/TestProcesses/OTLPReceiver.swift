import Foundation

/// The loopback OTLP/HTTP receiver (`OTLP/otlp_receiver.py`) for one test, on a reserved port: it
/// decodes what it is sent with the official OpenTelemetry protobuf definitions, so a test reads
/// what a real collector would have understood. Needs python3 with opentelemetry-proto, which
/// `make deps` installs into `.build/python`; when it cannot start, `init` throws with its log.
package final class OTLPReceiver: @unchecked Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// One request as received: its body's bytes, and the decoded request as protobuf's JSON mapping.
    package struct Request: @unchecked Sendable {
        package let path: String
        package let contentType: String?
        package let body: Data
        package let decoded: [String: Any]?
        package let decodeError: String?
    }

    package var endpoint: String { "http://127.0.0.1:\(reservation.port)/v1/metrics" }
    private let reservation: PortReservation
    private let directory: String
    private let child: ChildProcess

    /// `refusing` answers every request with 400, as a collector that rejects the data would.
    package init(refusing: Bool = false) throws {
        directory = NSTemporaryDirectory() + "totlp-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        reservation = try PortReservation()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("OTLP/otlp_receiver.py").path
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = Self.pythonPath + (environment["PYTHONPATH"].map { ":" + $0 } ?? "")
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let python = try SnapServer.which("python3")
        child = try ChildProcess(
            python, [script, String(reservation.port), refusing ? "refuse" : "accept"], environment: environment,
            stdout: "\(directory)/out", stderr: "\(directory)/err")
        let started = child
        let up = eventuallyBlocking(timeout: 20, every: .milliseconds(50)) {
            started.exitStatus != nil || lines().contains { $0.contains("\"listening\"") }
        }
        guard up, child.exitStatus == nil else {
            throw Failure(description: "the OTLP receiver did not start (run `make deps`): \(log())")
        }
    }

    deinit {
        child.send(SIGTERM)
        _ = child.wait(timeout: 5)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// `.build/python` of this checkout, where `make deps` puts opentelemetry-proto.
    private static var pythonPath: String {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return root.appendingPathComponent(".build/python").path
    }

    /// Every request received so far, in order.
    package func requests() -> [Request] {
        lines().compactMap { line in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                let hex = object["body"] as? String
            else { return nil }
            return Request(
                path: object["path"] as? String ?? "", contentType: object["contentType"] as? String, body: Self.data(hex: hex),
                decoded: object["request"] as? [String: Any], decodeError: object["decodeError"] as? String)
        }
    }

    /// The receiver's error output, for failure messages.
    package func log() -> String {
        (try? String(contentsOfFile: "\(directory)/err", encoding: .utf8)) ?? ""
    }

    private func lines() -> [String] {
        ((try? String(contentsOfFile: "\(directory)/out", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    private static func data(hex: String) -> Data {
        var bytes = Data()
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            if let byte = UInt8(hex[index..<next], radix: 16) { bytes.append(byte) }
            index = next
        }
        return bytes
    }
}
