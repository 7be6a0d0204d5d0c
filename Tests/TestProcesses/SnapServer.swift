import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private Snapcast server (`snapserver`, Debian's 0.26) for one test, on 127.0.0.1: one stream
/// `Tonearm` from a `tcp://` source in server mode (48 kHz, 16-bit, stereo, PCM to its clients),
/// optionally with a controlscript, and the JSON-RPC control port over plain TCP.
///
/// Its three ports (clients, control, source) are reserved for the server's whole life, across
/// kills and restarts, as `IcecastServer` does: snapserver binds with `SO_REUSEADDR`, and while it
/// is down, connecting to the source port is refused. When snapserver is missing or does not
/// come up, `init` throws with its log: the test FAILS, it never skips.
package final class SnapServer: @unchecked Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    package static let streamName = "Tonearm"

    package let directory: String
    package var clientPort: Int { reservations[0].port }
    package var controlPort: Int { reservations[1].port }
    package var sourcePort: Int { reservations[2].port }
    /// What `--output` takes: `tcp://127.0.0.1:PORT`, after `snapcast:`.
    package var sourceAddress: String { "tcp://127.0.0.1:\(sourcePort)" }

    private let reservations: [PortReservation]
    private let lock = NSLock()
    private var server: ChildProcess?
    private let executable: String

    /// - Parameters:
    ///   - controlscript: an executable snapserver starts for the stream (absolute path).
    ///   - bufferMilliseconds: the end-to-end latency the clients play at.
    package init(controlscript: String? = nil, bufferMilliseconds: Int = 1000, startTimeout: Double = 20) throws {
        var template = Array("/tmp/tsnap-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(description: "SnapServer: mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
        reservations = try (0..<3).map { _ in try PortReservation() }
        executable = try Self.which("snapserver")
        do {
            // snapserver's URI parser takes everything after the first `/` past the host as the
            // path, so the source URI has an empty path (`PORT/?`) before its query.
            var query = "name=\(Self.streamName)&mode=server&sampleformat=48000:16:2&codec=pcm"
            if let controlscript { query += "&controlscript=\(controlscript)" }
            let config = """
                [server]
                datadir = \(directory)/data
                [stream]
                bind_to_address = 127.0.0.1
                port = \(reservations[0].port)
                source = tcp://127.0.0.1:\(reservations[2].port)/?\(query)
                buffer = \(bufferMilliseconds)
                [tcp]
                enabled = true
                bind_to_address = 127.0.0.1
                port = \(reservations[1].port)
                [http]
                enabled = false
                [logging]
                filter = *:info

                """
            try FileManager.default.createDirectory(atPath: "\(directory)/data", withIntermediateDirectories: true)
            try config.write(toFile: "\(directory)/snapserver.conf", atomically: true, encoding: .utf8)
            try start(timeout: startTimeout)
        } catch {
            stop()
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts snapserver and waits until its control port takes connections. snapserver starts its
    /// streams (the source's listening socket) before its control server, and a probe of the
    /// source port would itself be taken as a source.
    private func start(timeout: Double) throws {
        let child = try ChildProcess(
            executable, ["-c", "\(directory)/snapserver.conf"], environment: ProcessInfo.processInfo.environment,
            stdout: "\(directory)/snapserver.out", stderr: "\(directory)/snapserver.err", appendStderr: true)
        lock.withLock { server = child }
        let port = controlPort
        let ready = eventuallyBlocking(timeout: timeout, every: .milliseconds(50)) {
            guard child.exitStatus == nil else { return true }
            guard let fd = try? IcecastServer.connect(port: port) else { return false }
            Glibc.close(fd)
            return true
        }
        guard ready, child.exitStatus == nil else {
            throw Failure(description: "snapserver did not come up (status \(child.exitStatus.map(String.init) ?? "running")): \(log())")
        }
    }

    /// Kills snapserver with SIGKILL, as a crash would: the source connection drops.
    package func kill() {
        let child = lock.withLock { server }
        child?.send(SIGKILL)
        _ = child?.wait(timeout: 10)
    }

    /// Starts snapserver again on the same ports.
    package func restart(timeout: Double = 20) throws {
        kill()
        try start(timeout: timeout)
    }

    /// Stops snapserver (SIGTERM, SIGKILL after 5 s). Idempotent.
    package func stop() {
        let child = lock.withLock { () -> ChildProcess? in
            defer { server = nil }
            return server
        }
        guard let child else { return }
        child.send(SIGTERM)
        if child.wait(timeout: 5) == nil {
            child.send(SIGKILL)
            _ = child.wait(timeout: 5)
        }
    }

    /// snapserver's log so far.
    package func log() -> String {
        let err = (try? String(contentsOfFile: "\(directory)/snapserver.err", encoding: .utf8)) ?? ""
        let out = (try? String(contentsOfFile: "\(directory)/snapserver.out", encoding: .utf8)) ?? ""
        return String((out + err).suffix(6_000))
    }

    static func which(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for dir in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"] {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Failure(description: "\(name) is not installed (apt-get install snapserver snapclient)")
    }
}
