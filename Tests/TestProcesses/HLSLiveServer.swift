import Foundation

/// A live HLS stream made the way stations make one: ffmpeg's hls muxer encodes a tone in real
/// time into a folder (a sliding playlist of 1 s segments, old ones deleted), and a loopback HTTP
/// server serves that folder. Faults for the tests: segments answered 404, the playlist frozen
/// (served as it was, while ffmpeg goes on), the server stopped and started again on its port,
/// and (with two renditions, 192 and 48 kbit/s behind a master playlist) the higher one served
/// slower than real time.
package final class HLSLiveServer: @unchecked Sendable {
    package enum Segments: String, Sendable {
        /// AAC in MPEG-TS, ffmpeg's default.
        case mpegts
        /// AAC in fragmented MP4 with an initialisation section.
        case fmp4
    }

    package let directory: URL
    private let encoder: ChildProcess
    private var server: TestHTTPServer!
    private var route: (@Sendable (TestHTTPServer.Request) -> TestHTTPServer.Response)!
    private var port = 0
    private let lock = NSLock()
    private var _segmentsMissing = false
    private var frozen: Data?
    private var _slowRendition: Int?
    private let playlistPath: String

    /// The playlist's address (the master playlist's with two renditions).
    package var url: URL { URL(string: "http://127.0.0.1:\(port)/\(twoRenditions ? "master.m3u8" : "live.m3u8")")! }
    package let twoRenditions: Bool

    /// The paths asked for so far, in order (of the server now serving).
    package var requestedPaths: [String] { lock.withLock { server }?.requests.map(\.path) ?? [] }

    /// Starts the encoder and the server, and waits (up to `timeout` s) until the playlist lists
    /// three segments.
    package init(segments: Segments = .mpegts, twoRenditions: Bool = false, timeout: Double = 30) throws {
        self.twoRenditions = twoRenditions
        playlistPath = twoRenditions ? "v0/live.m3u8" : "live.m3u8"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-hls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let ext = segments == .fmp4 ? "m4s" : "ts"
        var arguments = ["-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"]
        if twoRenditions {
            arguments += ["-map", "0:a", "-map", "0:a", "-ac", "2", "-c:a", "aac", "-b:a:0", "192k", "-b:a:1", "48k"]
        } else {
            arguments += ["-ac", "2", "-c:a", "aac", "-b:a", "128k"]
        }
        arguments += [
            "-f", "hls", "-hls_time", "1", "-hls_list_size", "6",
            "-hls_flags", "delete_segments+omit_endlist", "-hls_segment_type", segments.rawValue,
        ]
        if segments == .fmp4 { arguments += ["-hls_fmp4_init_filename", "init.mp4"] }
        if twoRenditions {
            for rendition in 0..<2 {
                try FileManager.default.createDirectory(at: directory.appendingPathComponent("v\(rendition)"), withIntermediateDirectories: true)
            }
            arguments += [
                "-var_stream_map", "a:0 a:1", "-master_pl_name", "master.m3u8",
                "-hls_segment_filename", directory.appendingPathComponent("v%v/seg%d.\(ext)").path,
                directory.appendingPathComponent("v%v/live.m3u8").path,
            ]
        } else {
            arguments += [
                "-hls_segment_filename", directory.appendingPathComponent("seg%d.\(ext)").path,
                directory.appendingPathComponent("live.m3u8").path,
            ]
        }
        encoder = try ChildProcess(
            "/usr/bin/ffmpeg", arguments, environment: ProcessInfo.processInfo.environment,
            stdout: directory.appendingPathComponent("ffmpeg.out").path, stderr: directory.appendingPathComponent("ffmpeg.err").path)
        let folder = directory
        route = { [weak self] request in
            // A path inside the folder: `live.m3u8`, `seg3.ts`, `v1/seg3.ts`.
            let name = String(request.path.drop { $0 == "/" })
            guard !name.isEmpty, !name.contains(".."), let self else { return .complete(status: 404, contentType: "text/plain", body: Data()) }
            if name == self.playlistPath {
                let body = self.lock.withLock { self.frozen } ?? (try? Data(contentsOf: folder.appendingPathComponent(name)))
                guard let body else { return .complete(status: 404, contentType: "text/plain", body: Data()) }
                return .complete(contentType: "application/vnd.apple.mpegurl", body: body)
            }
            if self.segmentsMissing, name.contains("seg") { return .complete(status: 404, contentType: "text/plain", body: Data()) }
            guard let body = try? Data(contentsOf: folder.appendingPathComponent(name)) else {
                return .complete(status: 404, contentType: "text/plain", body: Data())
            }
            if let slow = self.slowRendition, name.hasPrefix("v\(slow)/seg") {
                // A 1 s segment in four parts half a second apart: half real time.
                let quarter = (body.count + 3) / 4
                var parts: [TestHTTPServer.Part] = []
                for start in stride(from: 0, to: body.count, by: quarter) {
                    if !parts.isEmpty { parts.append(.pause(0.5)) }
                    parts.append(.bytes(body.subdata(in: start..<min(body.count, start + quarter))))
                }
                let type = name.hasSuffix(".ts") ? "video/mp2t" : "video/mp4"
                return TestHTTPServer.Response(headers: [("Content-Type", type), ("Content-Length", "\(body.count)")], body: parts)
            }
            return .complete(contentType: name.hasSuffix(".ts") ? "video/mp2t" : "video/mp4", body: body)
        }
        server = try TestHTTPServer(route: route)
        port = server.port
        _ = eventuallyBlocking(timeout: timeout, every: .milliseconds(100)) { encoder.exitStatus != nil || segmentCount() >= 3 }
        if segmentCount() < 3 {
            if let status = encoder.exitStatus {
                throw ChildProcess.SpawnError(description: "ffmpeg's hls muxer exited with \(status): \(errors())")
            }
            stop()
            throw ChildProcess.SpawnError(description: "no HLS playlist with 3 segments after \(timeout) s: \(errors())")
        }
    }

    /// Segments are answered 404 while this is true (the playlist still is).
    package var segmentsMissing: Bool {
        get { lock.withLock { _segmentsMissing } }
        set { lock.withLock { _segmentsMissing = newValue } }
    }

    /// The rendition (0: 192 kbit/s, 1: 48 kbit/s) whose segments are served at half real time.
    package var slowRendition: Int? {
        get { lock.withLock { _slowRendition } }
        set { lock.withLock { _slowRendition = newValue } }
    }

    /// Freezes the playlist as it is now (true) or lets it move on again (false).
    package func freezePlaylist(_ freeze: Bool) {
        let now = freeze ? try? Data(contentsOf: directory.appendingPathComponent(playlistPath)) : nil
        lock.withLock { frozen = now }
    }

    /// Stops the HTTP server (connections are refused; ffmpeg goes on writing segments).
    package func stopServing() {
        lock.withLock { server }?.stop()
    }

    /// Serves again on the same port.
    package func resumeServing() throws {
        let restarted = try TestHTTPServer(port: port, route: route)
        lock.withLock { server = restarted }
    }

    package func stop() {
        lock.withLock { server }?.stop()
        encoder.send(SIGKILL)
        _ = encoder.wait(timeout: 5)
        try? FileManager.default.removeItem(at: directory)
    }

    private func segmentCount() -> Int {
        let text = (try? String(contentsOf: directory.appendingPathComponent(playlistPath), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.hasPrefix("#EXTINF") }.count
    }

    private func errors() -> String {
        (try? String(contentsOf: directory.appendingPathComponent("ffmpeg.err"), encoding: .utf8)) ?? ""
    }
}
