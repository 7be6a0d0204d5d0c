import Foundation

/// A terminal for end-to-end tests of the terminal UI: a detached tmux session on a private
/// server socket, with send-keys and capture-pane. tmux missing is a failure, never a skip.
package final class TmuxSession: @unchecked Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    private let socket = "tonearm-test-\(UUID().uuidString.prefix(8))"
    private let tmux: String
    private let scratch: URL

    /// Starts `command` (an argument vector, run without a shell) in a `width` x `height` pane
    /// with `environment` added. The pane stays after the program ends, so its last screen can be
    /// read.
    package init(_ command: [String], width: Int = 80, height: Int = 24, environment: [String: String] = [:]) throws {
        guard let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Failure(description: "tmux is not installed (apt-get install tmux)")
        }
        self.tmux = tmux
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-tmux-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        // remain-on-exit is set before the program starts (one tmux command queue), so a program
        // that ends at once still leaves its pane, and the server, to be read.
        var arguments = ["start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";", "new-session", "-d", "-x", "\(width)", "-y", "\(height)"]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        arguments += command
        try run(arguments)
    }

    deinit {
        _ = try? run(["kill-server"])
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The pane's text now.
    package func capture() throws -> String {
        try run(["capture-pane", "-p", "-t", "0"])
    }

    /// Sends keys as tmux names them ("r", "Space", "Left", "q").
    package func send(_ keys: String...) throws {
        try run(["send-keys", "-t", "0"] + keys)
    }

    /// Types `text` literally (no key names).
    package func sendText(_ text: String) throws {
        try run(["send-keys", "-t", "0", "-l", text])
    }

    /// Waits (polling) until the pane satisfies `condition`; the last capture either way.
    @discardableResult
    package func waitFor(timeout: Double, _ condition: (String) -> Bool) throws -> (matched: Bool, screen: String) {
        var screen = ""
        // Every capture runs tmux: 10 a second is often enough.
        let matched = try eventuallyBlocking(timeout: timeout, every: .milliseconds(100)) {
            screen = try capture()
            return condition(screen)
        }
        return (matched, screen)
    }

    /// Appends every byte the program writes to the terminal from now on to `file`.
    package func capturingOutput(to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw Failure(description: "cannot create \(file.path)")
        }
        // tmux runs this through its shell; the path is a temporary directory of ours, quoted.
        try run(["pipe-pane", "-o", "-t", "0", "cat >> '\(file.path)'"])
    }

    /// Sets a tmux server option (`set-clipboard on`, so programs may copy with OSC 52).
    package func setServerOption(_ name: String, _ value: String) throws {
        try run(["set-option", "-s", name, value])
    }

    /// The newest paste buffer (where tmux keeps what a program copied with OSC 52).
    package func pasteBuffer() throws -> String {
        try run(["show-buffer"])
    }

    /// The process id of the program in the pane.
    package func panePID() throws -> String {
        try run(["display-message", "-p", "-t", "0", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// True once the program in the pane has ended.
    package func paneIsDead() throws -> Bool {
        try run(["display-message", "-p", "-t", "0", "#{pane_dead}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        let out = scratch.appendingPathComponent("out").path
        let err = scratch.appendingPathComponent("err").path
        let child = try ChildProcess(
            tmux, ["-L", socket] + arguments, environment: ["PATH": "/usr/bin:/bin", "TERM": "xterm-256color"], stdout: out, stderr: err)
        guard child.wait(timeout: 10) == 0 else {
            throw Failure(description: "tmux \(arguments.first ?? ""): \((try? String(contentsOfFile: err, encoding: .utf8)) ?? "")")
        }
        return (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    }
}
