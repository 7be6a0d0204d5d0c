import Foundation

/// A finished HLS playlist (`#EXT-X-ENDLIST`), as a broadcaster publishes a past programme: ffmpeg's
/// hls muxer writes `seconds` of a tone as 1 s AAC segments in MPEG-TS into a folder (as fast as it
/// can, not in real time), and a loopback HTTP server serves that folder. Every request is kept.
package final class HLSRecordingServer: @unchecked Sendable {
    package let directory: URL
    private var server: TestHTTPServer!

    /// The playlist's address.
    package var url: URL { server.url("/recording.m3u8") }

    /// The paths asked for, in order.
    package var requestedPaths: [String] { server.requests.map(\.path) }

    package init(seconds: Int = 10) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-hls-vod-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = try ChildProcess(
            "/usr/bin/ffmpeg",
            [
                "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)",
                "-ac", "2", "-c:a", "aac", "-b:a", "128k", "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
                "-hls_segment_filename", directory.appendingPathComponent("part%d.ts").path,
                directory.appendingPathComponent("recording.m3u8").path,
            ],
            environment: ProcessInfo.processInfo.environment,
            stdout: directory.appendingPathComponent("ffmpeg.out").path, stderr: directory.appendingPathComponent("ffmpeg.err").path)
        let status = encoder.wait(timeout: 60)
        guard status == 0 else {
            let errors = (try? String(contentsOf: directory.appendingPathComponent("ffmpeg.err"), encoding: .utf8)) ?? ""
            throw ChildProcess.SpawnError(description: "ffmpeg's hls muxer ended with \(String(describing: status)): \(errors)")
        }
        let folder = directory
        server = try TestHTTPServer { request in
            let name = String(request.path.split(separator: "/").last ?? "")
            guard !name.isEmpty, !name.contains(".."), let body = try? Data(contentsOf: folder.appendingPathComponent(name)) else {
                return .complete(status: 404, contentType: "text/plain", body: Data())
            }
            return .complete(contentType: name.hasSuffix(".m3u8") ? "application/vnd.apple.mpegurl" : "video/mp2t", body: body)
        }
    }

    package func stop() {
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
