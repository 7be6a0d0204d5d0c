import AsyncHTTPClient
import Foundation
import TestProcesses
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// A private Icecast 2 server for one test, on 127.0.0.1 and a free port, fed by an ffmpeg source
/// client that loops a generated tone MP3 in real time (`-re -stream_loop -1`) on `/live.mp3`.
///
/// Runs as root: the generated config drops privileges with `<changeowner>` to icecast2/icecast
/// (Icecast 2.4 refuses to run as root otherwise) and the temporary directory is chowned to that
/// user so the logs can be written. When icecast2 or ffmpeg is missing or does not come up, `init`
/// throws with the logs: the test FAILS, it never skips.
///
/// Children are spawned from argument vectors with `posix_spawn` and reaped with `waitpid`
/// (`IcecastServer.Child`, the pattern of `PulseAudioDaemon.Child`) instead of Foundation's `Process`.
final class IcecastServer: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let sourcePassword = "src-\(UInt32.random(in: 0...UInt32.max))"
    static let adminPassword = "adm-\(UInt32.random(in: 0...UInt32.max))"
    /// The mount the ffmpeg source feeds.
    static let mount = "/live.mp3"
    /// What the source announces as `icy-name` / `icy-genre`.
    static let stationName = "Tonearm Test Radio"
    static let stationGenre = "Test Tones"

    let directory: String
    let port: Int
    var baseURL: String { "http://127.0.0.1:\(port)" }
    var streamURL: URL { URL(string: "\(baseURL)\(Self.mount)")! }

    private let lock = NSLock()
    private var icecast: Child?
    private var source: Child?

    init(startTimeout: Double = 15) throws {
        var template = Array("/tmp/tice-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(description: "IcecastServer: mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
        port = try Self.freePort()
        do {
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

    private func start(timeout: Double) throws {
        let icecastPath = try Self.which("icecast2", hint: "apt-get install icecast2")
        let ffmpegPath = try Self.which("ffmpeg", hint: "apt-get install ffmpeg")
        guard let owner = getpwnam("icecast2"), let group = getgrnam("icecast") else {
            throw Failure(description: "IcecastServer: user icecast2 / group icecast missing (apt-get install icecast2)")
        }
        let logDir = "\(directory)/log"
        try FileManager.default.createDirectory(atPath: logDir, withIntermediateDirectories: true)
        let config = """
            <icecast>
              <location>test</location>
              <admin>test@localhost</admin>
              <limits>
                <clients>50</clients><sources>4</sources><queue-size>524288</queue-size>
                <client-timeout>30</client-timeout><header-timeout>15</header-timeout>
                <source-timeout>10</source-timeout><burst-on-connect>1</burst-on-connect>
                <burst-size>16384</burst-size>
              </limits>
              <authentication>
                <source-password>\(Self.sourcePassword)</source-password>
                <relay-password>\(Self.sourcePassword)</relay-password>
                <admin-user>admin</admin-user>
                <admin-password>\(Self.adminPassword)</admin-password>
              </authentication>
              <hostname>127.0.0.1</hostname>
              <listen-socket><port>\(port)</port><bind-address>127.0.0.1</bind-address></listen-socket>
              <fileserve>1</fileserve>
              <paths>
                <basedir>\(directory)</basedir>
                <logdir>\(logDir)</logdir>
                <webroot>/usr/share/icecast2/web</webroot>
                <adminroot>/usr/share/icecast2/admin</adminroot>
              </paths>
              <logging>
                <accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel>
              </logging>
              <security>
                <chroot>0</chroot>
                <changeowner><user>icecast2</user><group>icecast</group></changeowner>
              </security>
            </icecast>

            """
        try config.write(toFile: "\(directory)/icecast.xml", atomically: true, encoding: .utf8)
        for path in [directory, logDir] {
            guard chown(path, owner.pointee.pw_uid, group.pointee.gr_gid) == 0, chmod(path, 0o755) == 0 else {
                throw Failure(description: "IcecastServer: chown \(path): \(String(cString: strerror(errno)))")
            }
        }

        // A 3 s tone, looped by the source.
        let tone = "\(directory)/tone.mp3"
        let made = try run(
            ffmpegPath,
            ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3:sample_rate=44100",
             "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k", tone])
        guard made.status == 0 else { throw Failure(description: "IcecastServer: ffmpeg could not make the tone: \(made.error)") }

        let server = try Child(
            icecastPath, ["-c", "\(directory)/icecast.xml"], environment: ProcessInfo.processInfo.environment,
            stdout: "\(directory)/icecast.out", stderr: "\(directory)/icecast.err")
        lock.withLock { icecast = server }
        try waitUntil(timeout: timeout, what: "Icecast to answer /status-json.xsl", process: server) {
            (try? self.fetch("/status-json.xsl"))?.status == 0
        }

        let feeder = try Child(
            ffmpegPath,
            ["-nostdin", "-v", "error", "-re", "-stream_loop", "-1", "-i", tone, "-c:a", "libmp3lame", "-b:a", "320k",
             "-content_type", "audio/mpeg", "-ice_name", Self.stationName, "-ice_genre", Self.stationGenre,
             "-f", "mp3", "icecast://source:\(Self.sourcePassword)@127.0.0.1:\(port)\(Self.mount)"],
            environment: ProcessInfo.processInfo.environment,
            stdout: "/dev/null", stderr: "\(directory)/ffmpeg.err")
        lock.withLock { source = feeder }
        try waitUntil(timeout: timeout, what: "the mount \(Self.mount) to be listed", process: feeder) {
            guard let status = try? self.fetch("/status-json.xsl"), status.status == 0 else { return false }
            return status.output.contains("\(self.port)\(Self.mount)")
        }
    }

    private func waitUntil(timeout: Double, what: String, process: Child, _ ready: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let status = process.exitStatus {
                throw Failure(description: "IcecastServer: a child exited with status \(status) while waiting for \(what).\n\(logs())")
            }
            if ready() { return }
            if Date() >= deadline {
                throw Failure(description: "IcecastServer: timed out after \(timeout) s waiting for \(what).\n\(logs())")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// Sets the mount's title through the admin interface (`/admin/metadata`, mode updinfo).
    func setTitle(_ title: String) throws {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let song = title.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        let result = try fetch(
            "/admin/metadata?mount=\(Self.mount)&mode=updinfo&charset=UTF-8&song=\(song)",
            credentials: "admin:\(Self.adminPassword)")
        guard result.status == 0, result.output.contains("Metadata update successful") else {
            throw Failure(description: "IcecastServer: setTitle failed (\(result.status)): \(result.output) \(result.error)")
        }
    }

    /// Kills Icecast with SIGKILL, as a crash would (listeners see the body end). The source stops too.
    func kill() {
        let server = lock.withLock { () -> Child? in defer { icecast = nil }; return icecast }
        server?.send(SIGKILL)
        _ = server?.wait(timeout: 5)
    }

    /// Stops the source and the server with SIGKILL (test processes have nothing to save; ffmpeg
    /// blocked on its icecast:// output ignores SIGTERM for seconds). Idempotent.
    func stop() {
        let (feeder, server) = lock.withLock { () -> (Child?, Child?) in
            defer { source = nil; icecast = nil }
            return (source, icecast)
        }
        for (child, signal) in [(feeder, SIGKILL), (server, SIGKILL)] {
            guard let child else { continue }
            child.send(signal)
            if child.wait(timeout: 5) == nil {
                child.send(SIGKILL)
                _ = child.wait(timeout: 5)
            }
        }
    }

    /// Icecast's error log, its stderr and ffmpeg's stderr, for failure messages.
    func logs() -> String {
        ["log/error.log", "icecast.err", "ffmpeg.err"].map { name in
            let text = (try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)) ?? "(none)"
            return "--- \(name):\n\(text.suffix(3000))"
        }.joined(separator: "\n")
    }

    // MARK: - Helpers

    /// GETs `path` from the server (blocking; call off the cooperative pool). `status` is 0 for a
    /// 2xx answer, else the HTTP status (or -1 when the request failed); `output` is the body.
    func fetch(_ path: String, credentials: String? = nil) throws -> (status: Int32, output: String, error: String) {
        var request = try HTTPClient.Request(url: "\(baseURL)\(path)", method: .GET)
        if let credentials {
            request.headers.add(name: "Authorization", value: "Basic \(Data(credentials.utf8).base64EncodedString())")
        }
        do {
            let response = try HTTPClient.shared.execute(request: request, deadline: .now() + .seconds(5)).wait()
            let body = response.body.map { String(buffer: $0) } ?? ""
            let code = Int32(response.status.code)
            return ((200...299).contains(code) ? 0 : code, body, "")
        } catch {
            return (-1, "", String(describing: error))
        }
    }

    /// Runs a short command to completion and returns its status and output.
    func run(_ executable: String, _ arguments: [String], timeout: Double = 20) throws
        -> (status: Int32, output: String, error: String)
    {
        let id = UUID().uuidString
        let outPath = "\(directory)/out-\(id)"
        let errPath = "\(directory)/err-\(id)"
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        let process = try Child(executable, arguments, environment: ProcessInfo.processInfo.environment, stdout: outPath, stderr: errPath)
        guard let status = process.wait(timeout: timeout) else {
            process.send(SIGKILL)
            _ = process.wait(timeout: 5)
            throw Failure(description: "\(executable) did not finish within \(timeout) s")
        }
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return (status, output, error)
    }

    static func which(_ name: String, hint: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin", "/usr/local/bin"] {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Failure(description: "IcecastServer: \(name) is not installed (\(hint))")
    }

    /// A TCP port on 127.0.0.1 that nothing listens on right now (bound to port 0, then released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { Glibc.close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure(description: "bind: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw Failure(description: "getsockname: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

extension IcecastServer {
    typealias Child = ChildProcess
}
