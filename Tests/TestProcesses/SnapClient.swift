import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `snapclient` (Debian's 0.26) of a `SnapServer`, with its own host id, playing through the
/// player its arguments name (`--player pulse:server=...` with `--soundcard SINK`, or `file`).
/// Stopped with SIGTERM when released.
package final class SnapClient: @unchecked Sendable {
    package let hostID: String
    private let child: ChildProcess
    private let logPath: String

    /// - Parameters:
    ///   - playerArguments: what selects the player and its device, passed as given.
    ///   - environment: the client's environment (a private PulseAudio's, say).
    ///   - directory: where its log is written.
    package init(server: SnapServer, hostID: String, playerArguments: [String], environment: [String: String], directory: String) throws {
        self.hostID = hostID
        logPath = "\(directory)/snapclient-\(hostID).log"
        child = try ChildProcess(
            try SnapServer.which("snapclient"),
            ["--host", "127.0.0.1", "--port", String(server.clientPort), "--hostID", hostID, "--logsink", "stderr"] + playerArguments,
            environment: environment, stdout: logPath, stderr: logPath, appendStderr: true)
    }

    deinit { stop() }

    package var isRunning: Bool { child.exitStatus == nil }

    package func stop() {
        guard child.exitStatus == nil else { return }
        child.send(SIGTERM)
        if child.wait(timeout: 5) == nil {
            child.send(SIGKILL)
            _ = child.wait(timeout: 5)
        }
    }

    package func log() -> String {
        String(((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").suffix(4_000))
    }
}
