import AsyncHTTPClient
import Foundation
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// A private Icecast 2 server for one test, on 127.0.0.1 and a free port, fed by an ffmpeg source
/// client that loops a generated tone MP3 (or, with `silent`, one of digital silence) in real time
/// (`-re -stream_loop -1`) on `/live.mp3`.
///
/// Runs as root: the generated config drops privileges with `<changeowner>` to icecast2/icecast
/// (Icecast 2.4 refuses to run as root otherwise) and the temporary directory is chowned to that
/// user so the logs can be written. When icecast2 or ffmpeg is missing or does not come up, `init`
/// throws with the logs: the test FAILS, it never skips.
///
/// Faults: `kill()` (SIGKILL, as a crash) and `restart()` (same port, same config, new source);
/// `stopSource()` / `startSource()` (the mount disappears and comes back).
///
/// ICY: Icecast itself interleaves metadata for MP3 mounts. A listener that sends `Icy-MetaData: 1`
/// gets `icy-metaint: 16000` (Icecast 2.4.4's default for mounts without `<icy-metadata-interval>`);
/// the ffmpeg source sends plain MP3 and needs nothing special. A new listener gets the current
/// title in its first block; later blocks are empty (length byte 0) until the title changes.
///
/// All methods block (HTTP requests, process waits): call them off the cooperative pool.
/// Children are spawned from argument vectors with `posix_spawn` and reaped with `waitpid` (`ChildProcess`).
package final class IcecastServer: @unchecked Sendable {
    /// A harness failure, with the logs when they help.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    package static let sourcePassword = "src-\(UInt32.random(in: 0...UInt32.max))"
    package static let adminPassword = "adm-\(UInt32.random(in: 0...UInt32.max))"
    /// The mount the ffmpeg source feeds.
    package static let mount = "/live.mp3"
    /// What the source announces as `icy-name` / `icy-genre`.
    package static let stationName = "Tonearm Test Radio"
    package static let stationGenre = "Test Tones"
    /// The `icy-metaint` Icecast 2.4 uses for the mount (its default; verified by the tests).
    package static let metaInterval = 16000
    /// Icecast 2.4 reads a request head of at most about 4 KiB; a longer admin request is answered
    /// with a connection reset. `setTitle` fails early above this many bytes of request line.
    package static let maxAdminRequestLine = 3_900

    package let directory: String
    package let port: Int
    private let reservation: PortReservation
    package var baseURL: String { "http://127.0.0.1:\(port)" }
    package var streamURL: URL { URL(string: "\(baseURL)\(Self.mount)")! }

    private let lock = NSLock()
    private var icecast: ChildProcess?
    private var source: ChildProcess?
    private var icecastPath = ""
    private var ffmpegPath = ""

    /// The source feeds digital silence instead of the tone (a station that plays and says nothing).
    private let silent: Bool

    package init(startTimeout: Double = 15, silent: Bool = false) throws {
        self.silent = silent
        var template = Array("/tmp/tice-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(description: "IcecastServer: mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
        // The port stays reserved for the server's whole life, across kills and restarts: no other
        // socket can take it meanwhile, and while Icecast is down connecting to it is refused.
        reservation = try PortReservation()
        port = reservation.port
        do {
            try prepare()
            try startIcecast(timeout: startTimeout)
            try startSource(timeout: startTimeout)
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

    /// Writes the config, chowns the directories and makes the 3 s tone (or silence) the source loops.
    private func prepare() throws {
        icecastPath = try Self.which("icecast2", hint: "apt-get install icecast2")
        ffmpegPath = try Self.which("ffmpeg", hint: "apt-get install ffmpeg")
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
        let made = try run(
            ffmpegPath,
            ["-nostdin", "-v", "error", "-y", "-f", "lavfi",
             "-i", silent ? "anullsrc=sample_rate=44100:channel_layout=stereo:duration=3" : "sine=frequency=440:duration=3:sample_rate=44100",
             "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k", "\(directory)/tone.mp3"])
        guard made.status == 0 else { throw Failure(description: "IcecastServer: ffmpeg could not make the tone: \(made.error)") }
    }

    /// Starts icecast2 on `port` with the config and waits until it answers.
    ///
    /// Icecast 2.4.4 now and then dies of a segmentation fault (status 139) during its own
    /// start-up, after logging "server started" and before answering anything; seen about once in
    /// twenty test runs on a loaded machine. That crash is Icecast's, not what a test examines, so
    /// a server that crashed before it ever answered is started again (at most twice more); any
    /// other failure, and a crash after it answered, is reported.
    private func startIcecast(timeout: Double) throws {
        for attempt in 1...3 {
            let server = try ChildProcess(
                icecastPath, ["-c", "\(directory)/icecast.xml"], environment: ProcessInfo.processInfo.environment,
                stdout: "\(directory)/icecast.out", stderr: "\(directory)/icecast.err", appendStderr: true)
            lock.withLock { icecast = server }
            do {
                try waitUntil(timeout: timeout, what: "Icecast to answer /status-json.xsl on port \(port)", process: server) {
                    (try? self.fetch("/status-json.xsl"))?.status == 0
                }
                return
            } catch {
                guard attempt < 3, server.exitStatus == 139 else { throw error }
            }
        }
    }

    /// Starts the ffmpeg source client (again) and waits until the mount is listed.
    /// Stops a source that is still running first.
    /// A source refused at its first connect (Icecast answered its status page a moment before
    /// its source listener took connections, seen on a loaded machine) is started again, at most
    /// twice; any other failure is reported.
    package func startSource(timeout: Double = 15) throws {
        for attempt in 1...3 {
            killSource()
            let feeder = try ChildProcess(
                ffmpegPath,
                ["-nostdin", "-v", "error", "-re", "-stream_loop", "-1", "-i", "\(directory)/tone.mp3", "-c:a", "libmp3lame",
                 "-b:a", "320k", "-content_type", "audio/mpeg", "-ice_name", Self.stationName, "-ice_genre", Self.stationGenre,
                 "-f", "mp3", "icecast://source:\(Self.sourcePassword)@127.0.0.1:\(port)\(Self.mount)"],
                environment: ProcessInfo.processInfo.environment,
                stdout: "/dev/null", stderr: "\(directory)/ffmpeg.err", appendStderr: true)
            lock.withLock { source = feeder }
            do {
                try waitUntil(timeout: timeout, what: "the mount \(Self.mount) to be listed", process: feeder) {
                    self.mountListed() == true
                }
                return
            } catch {
                let refused = (try? String(contentsOfFile: "\(directory)/ffmpeg.err", encoding: .utf8))?.contains("Connection refused") == true
                guard attempt < 3, feeder.exitStatus != nil, refused else { throw error }
                // Tried again once Icecast takes connections.
                let port = self.port
                _ = eventuallyBlocking(timeout: timeout, every: .milliseconds(100)) {
                    guard let connection = try? Self.connect(port: port) else { return false }
                    Glibc.close(connection)
                    return true
                }
            }
        }
    }

    /// Kills only the ffmpeg source (SIGKILL) and waits until Icecast has dropped the mount: live
    /// listeners' bodies end, new requests for the mount get 404.
    package func stopSource(timeout: Double = 15) throws {
        killSource()
        guard eventuallyBlocking(timeout: timeout, every: .milliseconds(50), { mountListed() == false }) else {
            throw Failure(description: "IcecastServer: the mount was still listed \(timeout) s after the source died.\n\(logs())")
        }
    }

    /// After `kill()` (or a crash): starts Icecast again on the same port with the same config, then
    /// the source, and waits until the mount is listed. Kills whatever still runs first.
    package func restart(timeout: Double = 15) throws {
        stop()
        try startIcecast(timeout: timeout)
        try startSource(timeout: timeout)
    }

    /// True when the mount is listed, false when Icecast answers without it, nil when it does not answer.
    package func mountListed() -> Bool? {
        guard let status = try? fetch("/status-json.xsl"), status.status == 0 else { return nil }
        return status.output.contains("\(port)\(Self.mount)")
    }

    /// The listeners connected to the mount, as Icecast counts them; nil when it does not answer or
    /// does not list the mount.
    package func listeners() -> Int? {
        guard let status = try? fetch("/status-json.xsl"), status.status == 0,
            let json = try? JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any],
            let stats = json["icestats"] as? [String: Any]
        else { return nil }
        // One source is an object, several an array.
        let sources = stats["source"] as? [[String: Any]] ?? (stats["source"] as? [String: Any]).map { [$0] } ?? []
        let mount = sources.first { ($0["listenurl"] as? String)?.hasSuffix("\(port)\(Self.mount)") == true }
        return mount?["listeners"] as? Int
    }

    private func killSource() {
        let feeder = lock.withLock { () -> ChildProcess? in defer { source = nil }; return source }
        feeder?.send(SIGKILL)
        _ = feeder?.wait(timeout: 5)
    }

    private func waitUntil(timeout: Double, what: String, process: ChildProcess, _ ready: () -> Bool) throws {
        var isReady = false
        _ = eventuallyBlocking(timeout: timeout, every: .milliseconds(100)) {
            guard process.exitStatus == nil else { return true }
            isReady = ready()
            return isReady
        }
        if isReady { return }
        if let status = process.exitStatus {
            throw Failure(description: "IcecastServer: a child exited with status \(status) while waiting for \(what).\n\(logs())")
        }
        throw Failure(description: "IcecastServer: timed out after \(timeout) s waiting for \(what).\n\(logs())")
    }

    // MARK: - Titles

    /// Sets the mount's title through the admin interface (`/admin/metadata`, mode updinfo), as UTF-8.
    package func setTitle(_ title: String) throws {
        try setTitle(bytes: Array(title.utf8), charset: "UTF-8")
    }

    /// Sets the title from raw bytes, each percent-encoded, declared as `charset`.
    ///
    /// What Icecast 2.4.4 does with them (checked by reading the listener's ICY block; the mount's
    /// metadata charset is ISO-8859-1 unless `<charset>` is configured, and Icecast converts to it
    /// with libxml2):
    /// - `charset=ISO-8859-1`: bytes pass unchanged (0xE9 stays 0xE9; a raw C1 0x9D stays 0x9D).
    /// - `charset=UTF-8`: converted to Latin-1: "é" (C3 A9) arrives as 0xE9, U+009D as the raw
    ///   byte 0x9D; a character outside Latin-1 (U+202E RIGHT-TO-LEFT OVERRIDE) arrives as the
    ///   text `&#8238;`; invalid UTF-8 (a bare 0xE9 or 0x9D) cuts the title at that byte.
    /// - ESC sequences (CSI, OSC 52 with its BEL), CR and LF pass through unchanged in either
    ///   charset; a `'` is not escaped (`StreamTitle='It's';`); a NUL byte ends the title.
    /// - Length: the whole admin request head must fit in about 4 KiB, so at most about 3,975
    ///   unencoded bytes (a third of that for bytes that need `%XX`); longer requests are reset by
    ///   Icecast. A 4,000-character title cannot be set this way: this method throws early
    ///   (`maxAdminRequestLine`). Serve such a block from `TestHTTPServer` instead.
    package func setTitle(bytes: [UInt8], charset: String) throws {
        let unreserved = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8))
        let song = bytes.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
        let charsetParameter = charset.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["-", "_"])) ?? "UTF-8"
        let path = "/admin/metadata?mount=\(Self.mount)&mode=updinfo&charset=\(charsetParameter)&song=\(song)"
        guard path.utf8.count <= Self.maxAdminRequestLine else {
            throw Failure(
                description: "IcecastServer: a \(path.utf8.count)-byte admin request line is more than Icecast 2.4 reads "
                    + "(about 4 KiB of request head); use a shorter title")
        }
        let result = try fetch(path, credentials: "admin:\(Self.adminPassword)")
        guard result.status == 0, result.output.contains("Metadata update successful") else {
            throw Failure(description: "IcecastServer: setTitle failed (\(result.status)): \(result.output) \(result.error)")
        }
    }

    /// Connects as a listener with `Icy-MetaData: 1` on a plain socket and returns the response's
    /// `icy-metaint` and the first non-empty metadata block, padding included, byte for byte (what
    /// Icecast really sends, before any client parsing).
    package func firstMetadataBlock(timeout: Double = 10) throws -> (metaInterval: Int, block: [UInt8]) {
        let fd = try Self.connect(port: port)
        defer { Glibc.close(fd) }
        var seconds = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET \(Self.mount) HTTP/1.0\r\nHost: 127.0.0.1\r\nIcy-MetaData: 1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let deadline = Date().addingTimeInterval(timeout)
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        func more() throws {
            guard Date() < deadline else { throw Failure(description: "IcecastServer: no metadata block within \(timeout) s") }
            let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got == 0 { throw Failure(description: "IcecastServer: the stream ended before a metadata block") }
            if got > 0 { data.append(contentsOf: chunk[0..<got]) }
        }
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            try more()
            if data.count >= 4 { headEnd = (0...(data.count - 4)).first { Array(data[$0..<($0 + 4)]) == separator } }
        }
        let head = String(decoding: data[0..<headEnd!], as: UTF8.self)
        let metaLine = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("icy-metaint:") }
        guard let metaLine, let interval = Int(metaLine.dropFirst("icy-metaint:".count).trimmingCharacters(in: .whitespaces)),
            interval > 0
        else { throw Failure(description: "IcecastServer: no icy-metaint in the response head:\n\(head)") }
        var position = headEnd! + 4
        while true {
            while data.count < position + interval + 1 { try more() }
            let length = Int(data[position + interval]) * 16
            while data.count < position + interval + 1 + length { try more() }
            if length > 0 { return (interval, Array(data[(position + interval + 1)..<(position + interval + 1 + length)])) }
            position += interval + 1
        }
    }

    // MARK: - Faults and teardown

    /// Kills Icecast with SIGKILL, as a crash would (listeners see the body end). The source is left
    /// alone (it fails on its own); `restart()` replaces it.
    package func kill() {
        let server = lock.withLock { () -> ChildProcess? in defer { icecast = nil }; return icecast }
        server?.send(SIGKILL)
        _ = server?.wait(timeout: 5)
    }

    /// Stops the source and the server with SIGKILL (test processes have nothing to save; ffmpeg
    /// blocked on its icecast:// output ignores SIGTERM for seconds). Idempotent.
    package func stop() {
        let (feeder, server) = lock.withLock { () -> (ChildProcess?, ChildProcess?) in
            defer { source = nil; icecast = nil }
            return (source, icecast)
        }
        for child in [feeder, server] {
            guard let child else { continue }
            child.send(SIGKILL)
            _ = child.wait(timeout: 5)
        }
    }

    /// Icecast's error log, its stderr and ffmpeg's stderr, for failure messages.
    package func logs() -> String {
        ["log/error.log", "icecast.err", "ffmpeg.err"].map { name in
            let data = FileManager.default.contents(atPath: "\(directory)/\(name)") ?? Data()
            let text = data.isEmpty ? "(none)" : String(decoding: data.suffix(3000), as: UTF8.self)
            return "--- \(name):\n\(text)"
        }.joined(separator: "\n")
    }

    // MARK: - Helpers

    /// GETs `path` from the server (blocking; call off the cooperative pool). `status` is 0 for a
    /// 2xx answer, else the HTTP status (or -1 when the request failed); `output` is the body.
    package func fetch(_ path: String, credentials: String? = nil) throws -> (status: Int32, output: String, error: String) {
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
    package func run(_ executable: String, _ arguments: [String], timeout: Double = 20) throws
        -> (status: Int32, output: String, error: String)
    {
        let id = UUID().uuidString
        let outPath = "\(directory)/out-\(id)"
        let errPath = "\(directory)/err-\(id)"
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        let process = try ChildProcess(executable, arguments, environment: ProcessInfo.processInfo.environment, stdout: outPath, stderr: errPath)
        guard let status = process.wait(timeout: timeout) else {
            process.send(SIGKILL)
            _ = process.wait(timeout: 5)
            throw Failure(description: "\(executable) did not finish within \(timeout) s")
        }
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return (status, output, error)
    }

    package static func which(_ name: String, hint: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin", "/usr/local/bin"] {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Failure(description: "IcecastServer: \(name) is not installed (\(hint))")
    }

    /// A blocking TCP connection to 127.0.0.1:`port` (the caller closes the descriptor).
    package static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw Failure(description: "connect to port \(port): \(reason)")
        }
        return fd
    }

}
