import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real gpodder.net server (the mygpo API 2) for one test, on 127.0.0.1 and a reserved port:
/// `Gpodder/gpodder_api_server.py` runs gpodder-fastapi-router, a third party's implementation of
/// the API, under uvicorn, with its SQLite database in a temporary directory. Sync code is then held
/// to a server someone else wrote (`GpodderServer` is the tests' own reading of the published
/// specification), quirks included: subscriptions kept per device and shared only within a
/// sync-devices group, `since` as whole seconds of the server's clock for subscriptions and of the
/// actions' own timestamps for episode actions. `GpodderClient` adds a second device that syncs
/// through gPodder's own client library.
///
/// Needs the venv `.build/python312` that `make deps` builds (Python 3.12 and
/// scripts/python312-packages.txt). When the venv is missing or the server does not come up, `init`
/// throws with the reason and the server's log: a sync test fails then, under CI too, and never
/// passes by skipping.
package final class GpodderAPIServer: @unchecked Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The server's root, `http://127.0.0.1:PORT`; the API is under `/api/2/`.
    package var baseURL: URL { URL(string: "http://127.0.0.1:\(reservation.port)")! }
    private let reservation: PortReservation
    private let directory: String
    private let child: ChildProcess

    package init() throws {
        let python = try GpodderPython.interpreter()
        directory = NSTemporaryDirectory() + "tgpodder-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Held for the server's whole life: uvicorn listens on it with SO_REUSEADDR, and no other
        // test can be given the number meanwhile.
        reservation = try PortReservation()
        child = try ChildProcess(
            python, [GpodderPython.script("gpodder_api_server.py"), String(reservation.port), "\(directory)/data"],
            environment: GpodderPython.environment, stdout: "\(directory)/out", stderr: "\(directory)/err")
        let started = child
        // About a second alone (importing FastAPI, pydantic and SQLAlchemy, creating the tables);
        // many times that on a machine busy with the other tests.
        let up = eventuallyBlocking(timeout: 30, every: .milliseconds(50)) {
            started.exitStatus != nil || lines().contains { $0.contains("\"listening\"") }
        }
        guard up, child.exitStatus == nil else {
            throw Failure(description: "the gpodder.net server did not start (run `make deps`): \(log())")
        }
    }

    deinit {
        child.send(SIGTERM)
        if child.wait(timeout: 5) == nil {
            child.send(SIGKILL)
            _ = child.wait(timeout: 5)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Creates an account with `POST /api/2/auth/USER/register.json`, the router's extension to the
    /// API (gpodder.net itself has no registration call; the router offers it unless configured
    /// off). Throws unless the server answers 201, so a second registration of a name throws (409).
    package func register(username: String, password: String) throws {
        let name = username.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? username
        var request = URLRequest(url: baseURL.appendingPathComponent("api/2/auth/\(name)/register.json"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["password": password])
        request.timeoutInterval = 30
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            answer.set(status: (response as? HTTPURLResponse)?.statusCode, data: data, error: error)
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 30) == .success else {
            throw Failure(description: "register \(username): no answer in 30 s: \(log())")
        }
        let (status, data, error) = answer.get()
        guard status == 201 else {
            let body = data.map { String(decoding: $0, as: UTF8.self) } ?? ""
            throw Failure(
                description: "register \(username): \(status.map { "HTTP \($0)" } ?? "\(error.map { "\($0)" } ?? "no answer")") \(body)")
        }
    }

    /// The server's error output: uvicorn's log with one line per request, for failure messages.
    package func log() -> String {
        (try? String(contentsOfFile: "\(directory)/err", encoding: .utf8)) ?? ""
    }

    private func lines() -> [String] {
        ((try? String(contentsOfFile: "\(directory)/out", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// One request's answer, set by URLSession's delegate queue and read by the waiting thread.
    private final class Answer: @unchecked Sendable {
        private let lock = NSLock()
        private var status: Int?
        private var data: Data?
        private var error: (any Error)?
        func set(status: Int?, data: Data?, error: (any Error)?) { lock.withLock { (self.status, self.data, self.error) = (status, data, error) } }
        func get() -> (Int?, Data?, (any Error)?) { lock.withLock { (status, data, error) } }
    }
}

/// Where the gpodder.net harness's Python lives: the venv `make deps` builds in this checkout's
/// `.build/python312`, and the scripts beside this file in `Gpodder/`.
enum GpodderPython {
    /// This checkout, found from this file's path as the other harnesses find `.build/python`.
    static var root: URL {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return root
    }

    static func script(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Gpodder/\(name)").path
    }

    /// The venv's interpreter, or a failure that says how to get it.
    static func interpreter() throws -> String {
        let python = root.appendingPathComponent(".build/python312/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw GpodderAPIServer.Failure(
                description: "\(python) is missing: run `make deps` (scripts/install-deps.sh builds that venv with Python 3.12 "
                    + "and scripts/python312-packages.txt)")
        }
        return python
    }

    /// The test process's environment without what would make the venv's Python load other
    /// packages (`PYTHONPATH` may name `.build/python`, whose packages are for Debian's 3.11), and
    /// without bytecode written beside the scripts.
    static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = nil
        environment["PYTHONHOME"] = nil
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        return environment
    }
}
