import Foundation

/// A live HLS playlist of packed audio (ADTS segments, each starting with an ID3 tag), as stations
/// that carry song titles in timed metadata publish it: ffmpeg's adts muxer writes one 2 s
/// segment per title with the title and artist in its ID3 tag, and a loopback HTTP server serves
/// a playlist listing them (without an end, so it is live).
package final class HLSPackedAudioServer: @unchecked Sendable {
    package let directory: URL
    private var server: TestHTTPServer!

    package var url: URL { server.url("/radio.m3u8") }

    /// - Parameter songs: (artist, title) of each segment, in order.
    package init(songs: [(artist: String, title: String)]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-hls-id3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
        for (index, song) in songs.enumerated() {
            let name = "song\(index).aac"
            let encoder = try ChildProcess(
                "/usr/bin/ffmpeg",
                [
                    "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=\(440 + 110 * index):sample_rate=48000:duration=2",
                    "-ac", "2", "-c:a", "aac", "-b:a", "96k", "-f", "adts", "-write_id3v2", "1",
                    "-metadata", "title=\(song.title)", "-metadata", "artist=\(song.artist)",
                    directory.appendingPathComponent(name).path,
                ],
                environment: ProcessInfo.processInfo.environment,
                stdout: directory.appendingPathComponent("ffmpeg.out").path, stderr: directory.appendingPathComponent("ffmpeg.err").path)
            guard encoder.wait(timeout: 60) == 0 else {
                let errors = (try? String(contentsOf: directory.appendingPathComponent("ffmpeg.err"), encoding: .utf8)) ?? ""
                throw ChildProcess.SpawnError(description: "ffmpeg's adts muxer failed: \(errors)")
            }
            playlist += "#EXTINF:2.0,\n\(name)\n"
        }
        let listing = Data(playlist.utf8)
        let folder = directory
        server = try TestHTTPServer { request in
            let name = String(request.path.split(separator: "/").last ?? "")
            if name == "radio.m3u8" { return .complete(contentType: "application/vnd.apple.mpegurl", body: listing) }
            guard !name.isEmpty, !name.contains(".."), let body = try? Data(contentsOf: folder.appendingPathComponent(name)) else {
                return .complete(status: 404, contentType: "text/plain", body: Data())
            }
            return .complete(contentType: "audio/aac", body: body)
        }
    }

    package func stop() {
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
