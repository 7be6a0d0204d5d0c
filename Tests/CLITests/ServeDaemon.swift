import Foundation
import TestProcesses
import Testing

/// `tonearm serve` for a test: its own library, runtime directory (where its MPD socket is) and
/// music directory, the null output unless told otherwise; stopped with SIGTERM at the end.
final class ServeDaemon: @unchecked Sendable {
    let process = Process()
    let home: URL
    let runtime: URL
    let music: URL
    let errors: URL

    /// The MPD socket every `tonearm serve` listens on, reachable only by its user.
    var socket: String { Self.socket(home: home) }

    /// A folder of its own for a daemon's home, runtime directory and library.
    static func newHome() -> URL { FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-serve-\(UUID().uuidString)") }

    /// Where the daemon with `home` listens, known before it starts.
    static func socket(home: URL) -> String { home.appendingPathComponent("run/tonearm/mpd.sock").path }

    /// - Parameter replacingOutput: `extra` names the output (otherwise the null output).
    init(
        _ extra: [String] = [], music: URL, replacingOutput: Bool = false, environment extraEnvironment: [String: String] = [:],
        waitForSocket: Bool = true, home: URL = ServeDaemon.newHome()
    ) throws {
        self.home = home
        runtime = home.appendingPathComponent("run")
        self.music = music
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        errors = home.appendingPathComponent("stderr")
        guard FileManager.default.createFile(atPath: errors.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        process.executableURL = CLITests.binary
        // Debug level: a failing test's message carries the daemon's every command and state change.
        process.arguments = ["serve", "--log-level", "debug"] + (replacingOutput ? [] : ["--output", "null"]) + ["--music-directory", music.path] + extra
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C"
        environment["LC_ALL"] = nil
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/tonearm-test-bus"
        environment["TONEARM_MPD_PASSWORD"] = nil
        environment["JOURNAL_STREAM"] = nil
        for (key, value) in extraEnvironment { environment[key] = value }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        if waitForSocket {
            guard eventuallyBlocking(timeout: 30, { (try? MPDLineClient(self.socket)) != nil }) else {
                stop()
                throw MPDLineClient.Failure(description: "tonearm serve did not answer on \(socket): \(stderr)")
            }
            // The MPD socket answers as soon as its service starts; the daemon is ready once every
            // service has, which its info file (`daemon.json`, written just before READY=1) tells.
            // A test that reads an address from it reads it complete.
            let info = runtime.appendingPathComponent("tonearm/daemon.json").path
            guard eventuallyBlocking(timeout: 30, { FileManager.default.fileExists(atPath: info) }) else {
                stop()
                throw MPDLineClient.Failure(description: "tonearm serve never wrote \(info): \(stderr)")
            }
            // The music index's first update, under way before the socket answers: done before
            // the test asks anything, so no answer carries `updating_db` by chance.
            let socket = socket
            guard eventuallyBlocking(timeout: 60, { (try? MPDLineClient(socket).status())?["updating_db"] == nil }) else {
                stop()
                throw MPDLineClient.Failure(description: "tonearm serve never finished indexing \(music.path): \(stderr)")
            }
        }
    }

    var stderr: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

    /// The last lines of the daemon's log (at debug level), for a failure's message.
    var logTail: String {
        let file = home.appendingPathComponent("state/tonearm/tonearm.log")
        return ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").suffix(80).joined(separator: "\n")
    }

    func client() throws -> MPDLineClient { try MPDLineClient(socket) }

    /// `mpc ARGS` against this daemon.
    func mpc(_ arguments: String...) throws -> (status: Int32, out: String) { try Self.mpc(host: socket, arguments) }

    static func mpc(host: String, port: Int? = nil, _ arguments: [String]) throws -> (status: Int32, out: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mpc")
        process.arguments = ["-h", host] + (port.map { ["-p", String($0)] } ?? []) + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// SIGTERM, and the status it ended with.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { stop() }
        try? FileManager.default.removeItem(at: home)
    }
}

