import Foundation

/// python-mpd2 (PyPI's MPD client library, the one Home Assistant uses) driving a server for a
/// test: `PythonMPD/mpd2_session.py` runs the commands and prints each result as JSON. Needs
/// python-mpd2 in `.build/python` (`make deps`); when it is missing, `run` throws with the reason.
package enum PythonMPDClient {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// One command's outcome: its result (python-mpd2's own shape: a dict, a list of dicts, a
    /// string) or the ACK text.
    package enum Outcome {
        case result(Any)
        case error(String)

        package var result: Any? { if case .result(let value) = self { value } else { nil } }
        package var error: String? { if case .error(let text) = self { text } else { nil } }
    }

    /// Connects to `address` (host:port or a socket path), runs `commands` in order
    /// (`[method, arguments...]`), and returns the connection's greeting result first, then one
    /// outcome per command.
    package static func run(_ address: String, _ commands: [[String]], timeout: Double = 60) throws -> [Outcome] {
        let directory = NSTemporaryDirectory() + "tmpd2-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("PythonMPD/mpd2_session.py").path
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = pythonPath + (environment["PYTHONPATH"].map { ":" + $0 } ?? "")
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let json = String(decoding: try JSONSerialization.data(withJSONObject: commands), as: UTF8.self)
        let child = try ChildProcess(
            try SnapServer.which("python3"), [script, address, json], environment: environment, stdout: "\(directory)/out",
            stderr: "\(directory)/err")
        let status = child.wait(timeout: timeout)
        let errors = (try? String(contentsOfFile: "\(directory)/err", encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw Failure(description: "python-mpd2 session failed (status \(String(describing: status)); run `make deps`): \(errors)")
        }
        let lines = ((try? String(contentsOfFile: "\(directory)/out", encoding: .utf8)) ?? "").split(separator: "\n")
        return try lines.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw Failure(description: "not a JSON object: \(line)")
            }
            if let text = object["error"] as? String { return .error(text) }
            return .result(object["result"] ?? NSNull())
        }
    }

    /// `.build/python` of this checkout, where `make deps` puts python-mpd2.
    private static var pythonPath: String {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return root.appendingPathComponent(".build/python").path
    }
}
