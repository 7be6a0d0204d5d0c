import Foundation

/// gPodder's side of a sync test: one device of one account on a `GpodderAPIServer`, driven
/// through `Gpodder/gpodder_client.py`, which calls mygpoclient (the library gPodder syncs with),
/// so the server sees gPodder's requests and gPodder's parsing is applied to its answers. Each call
/// runs the script once, blocking until it ends, and returns its JSON answer; the script's error
/// (an HTTP status, an answer mygpoclient rejects) is thrown with the server's log.
///
/// The script differs from stock mygpoclient in what the router needs (a JSON content type,
/// credentials with the first request) and in passing each action's guid; its header says why.
package struct GpodderClient: Sendable {
    package let server: URL
    package let username: String
    package let password: String
    package let device: String
    /// The end of the server's log, for a failure's message (weak: a client outliving its test does
    /// not keep the server running).
    private let serverLog: @Sendable () -> String

    package init(_ server: GpodderAPIServer, username: String, password: String, device: String) {
        self.server = server.baseURL
        self.username = username
        self.password = password
        self.device = device
        serverLog = { [weak server] in String((server?.log() ?? "").suffix(4_000)) }
    }

    /// `POST /api/2/devices/USER/DEVICE.json`: `["ok": true]`.
    package func updateDevice(caption: String? = nil, type: String? = nil) throws -> [String: Any] {
        var command: [String: Any] = ["command": "update_device"]
        command["caption"] = caption
        command["type"] = type
        return try run(command)
    }

    /// `GET /api/2/devices/USER.json`: `["devices": [["id", "caption", "type", "subscriptions"]]]`.
    package func getDevices() throws -> [String: Any] {
        try run(["command": "get_devices"])
    }

    /// `POST /api/2/subscriptions/USER/DEVICE.json`: `["timestamp": Int, "update_urls": [[old, new]]]`.
    package func subscribe(add: [String] = [], remove: [String] = []) throws -> [String: Any] {
        try run(["command": "subscribe", "add": add, "remove": remove])
    }

    /// `GET /api/2/subscriptions/USER/DEVICE.json?since=`: `["add": [...], "remove": [...], "timestamp": Int]`.
    package func pullSubscriptions(since: Int) throws -> [String: Any] {
        try run(["command": "pull_subscriptions", "since": since])
    }

    /// `POST /api/2/episodes/USER.json`: `["timestamp": Int]`. Each action's keys are sent as given
    /// (podcast, episode, guid, action, timestamp, started, position, total, device); an action
    /// without "device" gets this device, as gPodder sends it.
    package func uploadActions(_ actions: [[String: Any]]) throws -> [String: Any] {
        try run(["command": "upload_actions", "actions": actions])
    }

    /// `GET /api/2/episodes/USER.json?since=`: `["actions": [the server's objects], "timestamp": Int]`.
    package func downloadActions(since: Int, podcast: String? = nil, device: String? = nil) throws -> [String: Any] {
        var command: [String: Any] = ["command": "download_actions", "since": since]
        command["podcast"] = podcast
        command["device"] = device
        return try run(command)
    }

    /// `GET /api/2/sync-devices/USER.json`: `["synchronized": [[String]], "not-synchronized": [String]]`.
    package func syncDevices() throws -> [String: Any] {
        try run(["command": "sync_devices"])
    }

    /// `POST /api/2/sync-devices/USER.json`; the groups afterwards, as `syncDevices()`.
    package func syncDevices(synchronize: [[String]], stopSynchronize: [String] = []) throws -> [String: Any] {
        try run(["command": "sync_devices", "synchronize": synchronize, "stop-synchronize": stopSynchronize])
    }

    /// Runs one command of the script (see its header) and returns its answer.
    package func run(_ command: [String: Any]) throws -> [String: Any] {
        let python = try GpodderPython.interpreter()
        let directory = NSTemporaryDirectory() + "tgpclient-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = String(decoding: try JSONSerialization.data(withJSONObject: command, options: [.sortedKeys]), as: UTF8.self)
        let name = command["command"] as? String ?? "?"
        let child = try ChildProcess(
            python, [GpodderPython.script("gpodder_client.py"), server.absoluteString, username, password, device, text],
            environment: GpodderPython.environment, stdout: "\(directory)/out", stderr: "\(directory)/err")
        guard let status = child.wait(timeout: 60) else {
            child.send(SIGKILL)
            throw GpodderAPIServer.Failure(description: "gpodder_client.py \(name) as \(device): no answer in 60 s\nserver: \(serverLog())")
        }
        let out = (try? String(contentsOfFile: "\(directory)/out", encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: "\(directory)/err", encoding: .utf8)) ?? ""
        let answer = (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [String: Any]
        guard status == 0, let answer, answer["error"] == nil else {
            let reason = answer?["error"].map { "\($0)" } ?? out
            throw GpodderAPIServer.Failure(
                description: "gpodder_client.py \(name) as \(device) (exit \(status)): \(reason)\(err.isEmpty ? "" : "\n\(err)")\nserver: \(serverLog())")
        }
        return answer
    }
}
