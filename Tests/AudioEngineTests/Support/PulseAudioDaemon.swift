import Foundation
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A private PulseAudio daemon for one test: its own temporary HOME, XDG_RUNTIME_DIR and socket,
/// a generated `pulse.pa` (anonymous unix socket, a null sink `test` as the default sink), started
/// in the foreground (`--daemonize=no`, not `-D`) so the test owns the pid. Works as root.
///
/// Every test makes its own daemon, so tests may run in parallel. When pulseaudio cannot start,
/// `init` throws with the daemon's log: the test FAILS (CI relies on this; it never skips).
///
/// Children are spawned from argument vectors (never a shell) with `posix_spawn` and reaped with
/// `waitpid` (`PulseAudioDaemon.Child`) rather than Foundation's `Process`: on Linux, `Process.waitUntilExit`
/// for short `pactl` runs was seen to hang for good (the `pactl` zombies never reaped) while the
/// long-lived daemon child was running.
final class PulseAudioDaemon: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The temporary directory holding HOME, XDG_RUNTIME_DIR, pulse.pa, the logs and the socket.
    let directory: String
    let socketPath: String
    /// The server string for libpulse, pactl and parecord: `unix:<directory>/native`.
    var serverAddress: String { "unix:\(socketPath)" }
    /// The daemon's stderr, for failure messages.
    var logPath: String { "\(directory)/pulseaudio.log" }

    private let lock = NSLock()
    private var daemon: Child?
    /// parecord and the file it records to.
    private var recorder: (process: Child, path: String)?

    /// Creates the directories and starts the daemon; waits until `pactl info` answers.
    init(startTimeout: Double = 10) throws {
        var template = Array("/tmp/tpa-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(description: "PulseAudioDaemon: mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
        socketPath = "\(directory)/native"
        do {
            for sub in ["home", "runtime"] {
                try FileManager.default.createDirectory(
                    atPath: "\(directory)/\(sub)", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            let script = """
                load-module module-native-protocol-unix auth-anonymous=1 socket=\(socketPath)
                load-module module-null-sink sink_name=test
                set-default-sink test

                """
            try script.write(toFile: "\(directory)/pulse.pa", atomically: true, encoding: .utf8)
            try start(timeout: startTimeout)
        } catch {
            stop()
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    deinit {
        stopRecording()
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The environment for pulseaudio, pactl and parecord: private HOME and runtime directory,
    /// no inherited server address or session bus.
    private var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = "\(directory)/home"
        env["XDG_RUNTIME_DIR"] = "\(directory)/runtime"
        env["XDG_CONFIG_HOME"] = "\(directory)/home/.config"
        env["PULSE_SERVER"] = nil
        env["PULSE_SINK"] = nil
        env["PULSE_SOURCE"] = nil
        env["DBUS_SESSION_BUS_ADDRESS"] = nil
        return env
    }

    // MARK: - Daemon lifecycle

    private func start(timeout: Double) throws {
        let executable = try Self.which("pulseaudio")
        let process: Child
        do {
            process = try Child(
                executable,
                [
                    "-n", "-F", "\(directory)/pulse.pa",
                    "--exit-idle-time=-1", "--disallow-exit", "--daemonize=no", "--system=no",
                    "--use-pid-file=no", "--realtime=no", "--high-priority=no", "--log-target=stderr",
                ],
                environment: environment, stdout: "/dev/null", stderr: logPath, appendStderr: true)
        } catch {
            throw Failure(description: "PulseAudioDaemon: cannot run \(executable): \(error)")
        }
        lock.withLock { daemon = process }

        var answered = false
        _ = eventuallyBlocking(timeout: timeout, every: .milliseconds(50)) {
            guard process.exitStatus == nil else { return true }
            answered = (try? pactl(["info"]))?.status == 0
            return answered
        }
        if answered { return }
        if let status = process.exitStatus {
            throw Failure(
                description: "PulseAudioDaemon: pulseaudio exited with status \(status) before answering.\n\(log())")
        }
        throw Failure(description: "PulseAudioDaemon: pulseaudio did not answer within \(timeout) s.\n\(log())")
    }

    /// Stops the daemon with SIGTERM (SIGKILL after 5 s). Idempotent.
    func stop() {
        guard let process = lock.withLock({ () -> Child? in defer { daemon = nil }; return daemon }) else { return }
        process.send(SIGTERM)
        if process.wait(timeout: 5) == nil {
            process.send(SIGKILL)
            _ = process.wait(timeout: 5)
        }
    }

    /// Kills the daemon with SIGKILL, as a crash would (its clients see the connection drop).
    func kill() {
        guard let process = lock.withLock({ () -> Child? in defer { daemon = nil }; return daemon }) else { return }
        process.send(SIGKILL)
        _ = process.wait(timeout: 5)
    }

    /// Stops the daemon if it runs and starts it again on the same socket path.
    func restart(timeout: Double = 10) throws {
        stop()
        try start(timeout: timeout)
    }

    /// True while the daemon process runs.
    var isRunning: Bool {
        guard let process = lock.withLock({ daemon }) else { return false }
        return process.exitStatus == nil
    }

    /// The daemon's log so far.
    func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)).map { "pulseaudio log:\n\($0)" } ?? "(no pulseaudio log)"
    }

    // MARK: - Recording

    /// Records `device` (the `test` sink's monitor by default) to a float32 WAV file at `path`
    /// with parecord, and returns once recorded data reaches the file.
    ///
    /// Why wait for data: an idle null sink runs at its maximum latency and renders up to 2 s
    /// ahead of the wall clock, so a stream that starts then is held back for up to 2 s and the
    /// monitor's first data arrives late. parecord asks for 20 ms of latency, which brings the sink
    /// down to low latency too; once data flows, the sink is in step, nothing played afterwards is
    /// missed, and a playback stream's writes proceed in real time.
    func startRecording(to path: String, device: String = "test.monitor", timeout: Double = 8) throws {
        let executable = try Self.which("parecord")
        let log = "\(directory)/parecord.log"
        let process = try Child(
            executable,
            [
                "--server=\(serverAddress)", "--device=\(device)", "--file-format=wav", "--format=float32le",
                "--rate=48000", "--channels=2", "--latency-msec=20", path,
            ],
            environment: environment, stdout: "/dev/null", stderr: log)
        lock.withLock { recorder = (process, path) }
        // The header is under 200 bytes; 50 ms of float stereo is 19,200.
        let enough = 200 + 19_200
        var size = 0
        _ = eventuallyBlocking(timeout: timeout) {
            guard process.exitStatus == nil else { return true }
            size = Self.size(of: path)
            return size >= enough
        }
        if size >= enough { return }
        if let status = process.exitStatus {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Failure(description: "parecord exited with status \(status): \(text)")
        }
        throw Failure(description: "parecord recorded no data within \(timeout) s (\(size) bytes)")
    }

    /// Returns once the recording holds `seconds` more audio than when called (up to `timeout`
    /// seconds): the monitor delivers in order and the recorder lags it by far less, so what was
    /// played before the call is then in the file. Counted on the recording's own clock, so a busy
    /// machine that holds the recorder back holds this wait back with it.
    func waitForRecording(seconds: Double, timeout: Double = 10) throws {
        guard let path = lock.withLock({ recorder?.path }) else { throw Failure(description: "not recording") }
        // Float stereo at 48 kHz: 8 bytes a frame.
        let wanted = Self.size(of: path) + Int(seconds * 48_000) * 8
        guard eventuallyBlocking(timeout: timeout, { Self.size(of: path) >= wanted }) else {
            throw Failure(description: "parecord recorded less than \(seconds) s within \(timeout) s (\(Self.size(of: path)) bytes)")
        }
    }

    /// The recording so far, interleaved stereo float samples, read while parecord still writes
    /// it (the header's sizes are not final yet: everything after the `data` chunk's header counts,
    /// up to the last whole frame).
    func recordedSamples() throws -> [Float] {
        guard let path = lock.withLock({ recorder?.path }) else { throw Failure(description: "not recording") }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let data = bytes.range(of: Data("data".utf8)) else { return [] }
        let body = bytes[(data.upperBound + 4)...]
        let frames = body.count / 8
        return body.prefix(frames * 8).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    private static func size(of path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// Stops parecord with SIGINT (it then finishes the WAV header) and waits for it.
    func stopRecording() {
        guard let process = lock.withLock({ () -> Child? in defer { recorder = nil }; return recorder?.process }) else { return }
        process.send(SIGINT)
        if process.wait(timeout: 5) == nil {
            process.send(SIGKILL)
            _ = process.wait(timeout: 5)
        }
    }

    // MARK: - pactl

    /// Loads another null sink; returns its module index.
    func loadNullSink(name: String) throws -> Int {
        let result = try pactl(["load-module", "module-null-sink", "sink_name=\(name)"])
        guard result.status == 0, let index = Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "pactl load-module failed (\(result.status)): \(result.output)\(result.error)")
        }
        return index
    }

    func unloadModule(_ index: Int) throws {
        let result = try pactl(["unload-module", String(index)])
        guard result.status == 0 else {
            throw Failure(description: "pactl unload-module \(index) failed (\(result.status)): \(result.error)")
        }
    }

    /// The index of the module that created the null sink `name` (`test` is loaded by pulse.pa).
    func nullSinkModule(name: String) throws -> Int {
        let result = try pactl(["list", "short", "modules"])
        for line in result.output.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.count >= 3, fields[1] == "module-null-sink",
                fields[2].split(separator: " ").contains(where: { $0 == "sink_name=\(name)" }),
                let index = Int(fields[0])
            {
                return index
            }
        }
        throw Failure(description: "no module-null-sink with sink_name=\(name): \(result.output)")
    }

    /// Sink-input indexes (playback streams) on the server.
    func sinkInputs() throws -> [Int] {
        let result = try pactl(["list", "short", "sink-inputs"])
        return result.output.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: { $0 == "\t" || $0 == " " }).first.flatMap { Int($0) }
        }
    }

    /// Runs `pactl -s <server> args...` and returns its status and output.
    @discardableResult
    func pactl(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        try run(try Self.which("pactl"), ["-s", serverAddress] + arguments)
    }

    // MARK: - Helpers

    /// Runs a short command to completion (at most `timeout` seconds) and returns its status and
    /// output (captured through files in the daemon's directory).
    func run(_ executable: String, _ arguments: [String], timeout: Double = 10) throws
        -> (status: Int32, output: String, error: String)
    {
        let id = UUID().uuidString
        let outPath = "\(directory)/out-\(id)"
        let errPath = "\(directory)/err-\(id)"
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        let process = try Child(executable, arguments, environment: environment, stdout: outPath, stderr: errPath)
        guard let status = process.wait(timeout: timeout) else {
            process.send(SIGKILL)
            _ = process.wait(timeout: 5)
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return (status, output, error)
    }

    /// The executable's path on PATH, or a clear failure.
    static func which(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"] {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Failure(description: "\(name) is not installed (apt-get install pulseaudio pulseaudio-utils)")
    }
}

extension PulseAudioDaemon {
    typealias Child = ChildProcess
}
