import Foundation
import TestProcesses

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `tonearm serve` as the systemd unit in contrib/ runs it: the unit's `ExecStart=` line, with
/// its binary replaced by the one under test and `%h` by the test's home, in a runtime directory
/// and library of its own, with a `NOTIFY_SOCKET` the harness listens on as systemd would.
final class ServeHarness: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let directory: URL
    let runtime: URL
    let dataHome: URL
    let logFile: URL
    let process: ChildProcess
    private let notify: Int32

    var stderrPath: String { directory.appendingPathComponent("stderr").path }
    var infoFile: URL { runtime.appendingPathComponent("tonearm/daemon.json") }

    /// The environment of every command of this test: its runtime directory and library, no bus.
    private static func environment(directory: URL, runtime: URL, dataHome: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C"
        environment["LC_ALL"] = nil
        environment["LC_MESSAGES"] = nil
        environment["HOME"] = directory.path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["XDG_DATA_HOME"] = dataHome.path
        environment["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        environment["XDG_CACHE_HOME"] = directory.appendingPathComponent("cache").path
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(directory.path)/no-bus"
        environment["JOURNAL_STREAM"] = nil
        return environment
    }

    /// The unit's `Key=` values, in order.
    static func unit() throws -> [(key: String, value: String)] {
        let text = try String(contentsOf: CLITests.packageRoot.appendingPathComponent("contrib/systemd/tonearm.service"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.hasPrefix("["), let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }
    }

    /// `ExecStart=`'s arguments after the binary, which must be a `tonearm`.
    static func execStartArguments() throws -> [String] {
        guard let line = try unit().first(where: { $0.key == "ExecStart" })?.value else { throw Failure(description: "no ExecStart= in the unit") }
        let words = line.split(separator: " ").map(String.init)
        guard let binary = words.first, binary.hasSuffix("/tonearm") else { throw Failure(description: "ExecStart= does not run tonearm: \(line)") }
        return Array(words.dropFirst())
    }

    /// Starts the daemon with the unit's arguments and `extra` (the test's output, log and start-up item).
    /// With `journal`, stderr is a file the harness names in `JOURNAL_STREAM`, as systemd names its
    /// journal stream, and no `--log-file` is given.
    init(extra: [String], dataHome: URL? = nil, logLevel: String = "info", journal: Bool = false) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-serve-\(UUID().uuidString)")
        self.directory = directory
        runtime = directory.appendingPathComponent("runtime")
        self.dataHome = dataHome ?? directory.appendingPathComponent("data")
        logFile = directory.appendingPathComponent("serve.log")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let notifyPath = directory.appendingPathComponent("notify").path
        notify = try Self.notifySocket(at: notifyPath)
        var environment = Self.environment(directory: directory, runtime: runtime, dataHome: self.dataHome)
        environment["NOTIFY_SOCKET"] = notifyPath
        let arguments = try Self.execStartArguments().map { $0.replacingOccurrences(of: "%h", with: directory.path) }
        let stderr = directory.appendingPathComponent("stderr").path
        if journal {
            _ = FileManager.default.createFile(atPath: stderr, contents: nil)
            var status = stat()
            guard stat(stderr, &status) == 0 else { throw Failure(description: "cannot stat \(stderr)") }
            environment["JOURNAL_STREAM"] = "\(status.st_dev):\(status.st_ino)"
        }
        let logging = journal ? ["--log-level", logLevel] : ["--log-file", logFile.path, "--log-level", logLevel]
        process = try ChildProcess(
            CLITests.binary.path, arguments + logging + extra, environment: environment,
            stdout: directory.appendingPathComponent("stdout").path, stderr: stderr, appendStderr: journal)
    }

    /// A datagram socket bound at `path`, read with a short timeout: systemd's end of sd_notify.
    private static func notifySocket(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, bound == 0 else { throw Failure(description: "cannot make the notify socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    deinit {
        if process.exitStatus == nil {
            process.send(SIGKILL)
            _ = process.wait(timeout: 10)
        }
        close(notify)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Waits for the daemon's `READY=1`, as systemd does for `Type=notify`.
    func waitUntilReady(timeout: Double = 60) throws {
        var messages: [String] = []
        let ready = eventuallyBlocking(timeout: timeout, every: .milliseconds(1)) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let got = recv(notify, &buffer, buffer.count, 0)
            if got > 0 { messages.append(String(decoding: buffer[..<got], as: UTF8.self)) }
            return messages.contains { $0.split(separator: "\n").contains("READY=1") } || process.exitStatus != nil
        }
        guard ready, process.exitStatus == nil else {
            throw Failure(description: "no READY=1 (exit \(String(describing: process.exitStatus)), got \(messages)): \(stderrText)\n\(logText)")
        }
    }

    var stderrText: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
    var logText: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// The furthest position the player's trace records name (`--log-level trace`).
    var heardPosition: Double {
        logText.split(separator: "\n").filter { $0.contains("event=positionChanged") }.compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("position=") }.flatMap { Double($0.dropFirst("position=".count)) }
        }.max() ?? 0
    }

    /// The info file's fields.
    func info() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: infoFile)) as? [String: Any] ?? [:]
    }

    /// Runs another `tonearm` command beside the daemon, in the same runtime directory and library.
    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        var environment = ["XDG_RUNTIME_DIR": runtime.path, "HOME": directory.path]
        for (key, value) in extra { environment[key] = value }
        return try CLITests.run(arguments, dataHome: dataHome, environment: environment)
    }
}
