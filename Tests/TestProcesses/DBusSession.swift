import Foundation

/// A private D-Bus session bus for the MPRIS tests: `dbus-daemon --session` on a socket in a
/// temporary directory, and `playerctl` talking to it. A missing tool is a failure, never a skip.
package final class DBusSession: @unchecked Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package let address: String
    private let daemon: ChildProcess
    private let directory: URL

    package init() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") else {
            throw Failure(description: "dbus-daemon is not installed (apt-get install dbus)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-dbus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("bus").path
        address = "unix:path=\(socket)"
        daemon = try ChildProcess(
            "/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=\(address)"],
            environment: ["PATH": "/usr/bin:/bin"], stdout: directory.appendingPathComponent("out").path,
            stderr: directory.appendingPathComponent("err").path)
        let daemon = self.daemon
        let listening = { FileManager.default.fileExists(atPath: socket) }
        _ = eventuallyBlocking(timeout: 10) { daemon.exitStatus != nil || listening() }
        guard daemon.exitStatus == nil, listening() else {
            throw Failure(description: "dbus-daemon did not start: \((try? String(contentsOf: directory.appendingPathComponent("err"), encoding: .utf8)) ?? "")")
        }
    }

    deinit {
        daemon.send(SIGTERM)
        _ = daemon.wait(timeout: 5)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `playerctl ARGS` on this bus; its trimmed stdout and exit status.
    @discardableResult
    package func playerctl(_ arguments: [String]) throws -> (out: String, status: Int32) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/playerctl") else {
            throw Failure(description: "playerctl is not installed (apt-get install playerctl)")
        }
        let out = directory.appendingPathComponent("playerctl-\(UUID().uuidString)")
        let child = try ChildProcess(
            "/usr/bin/playerctl", arguments, environment: ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": address],
            stdout: out.path, stderr: "/dev/null")
        let status = child.wait(timeout: 10) ?? -1
        defer { try? FileManager.default.removeItem(at: out) }
        let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        return (text.trimmingCharacters(in: .whitespacesAndNewlines), status)
    }

    /// Runs `dbus-send ARGS` on this bus (for what playerctl cannot do, such as setting Rate); its
    /// trimmed stdout and exit status.
    @discardableResult
    package func dbusSend(_ arguments: [String]) throws -> (out: String, status: Int32) {
        let out = directory.appendingPathComponent("dbus-send-\(UUID().uuidString)")
        let child = try ChildProcess(
            "/usr/bin/dbus-send", ["--session", "--print-reply"] + arguments,
            environment: ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": address], stdout: out.path, stderr: "/dev/null")
        let status = child.wait(timeout: 10) ?? -1
        defer { try? FileManager.default.removeItem(at: out) }
        let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        return (text.trimmingCharacters(in: .whitespacesAndNewlines), status)
    }

    /// `playerctl ARGS` left running (`--follow`), its lines collected.
    package final class Follower: @unchecked Sendable {
        private let child: ChildProcess
        private let file: URL

        init(child: ChildProcess, file: URL) {
            self.child = child
            self.file = file
        }

        deinit {
            child.send(SIGTERM)
            _ = child.wait(timeout: 5)
        }

        /// Waits until the lines so far satisfy `condition`.
        package func waitForLines(timeout: Double, _ condition: ([String]) -> Bool) throws -> (matched: Bool, lines: [String]) {
            var lines: [String] = []
            let matched = eventuallyBlocking(timeout: timeout, every: .milliseconds(50)) {
                lines = self.lines
                return condition(lines)
            }
            return (matched, lines)
        }

        /// The lines written so far.
        var lines: [String] { ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
    }

    package func follow(_ arguments: [String]) throws -> Follower {
        let file = directory.appendingPathComponent("follow-\(UUID().uuidString)")
        let child = try ChildProcess(
            "/usr/bin/playerctl", arguments, environment: ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": address],
            stdout: file.path, stderr: "/dev/null")
        let follower = Follower(child: child, file: file)
        // playerctl prints the property's current value once it follows the player: after that
        // first line, no change the test makes can be missed.
        guard eventuallyBlocking(timeout: 10, every: .milliseconds(50), { !follower.lines.isEmpty }) else {
            throw Failure(description: "playerctl \(arguments.joined(separator: " ")) printed nothing within 10 s")
        }
        return follower
    }

    /// Polls `playerctl ARGS` until its output satisfies `condition`; the last output either way.
    package func wait(for arguments: [String], timeout: Double, _ condition: (String) -> Bool) throws -> (matched: Bool, out: String) {
        var out = ""
        let matched = try eventuallyBlocking(timeout: timeout, every: .milliseconds(100)) {
            out = try playerctl(arguments).out
            return condition(out)
        }
        return (matched, out)
    }
}
