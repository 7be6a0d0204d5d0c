import Foundation
import PlayerCore
import Presentation
import TestProcesses
import Testing

/// `tonearm podcast download`, `downloads` and `auto-download` through the binary, against a real
/// HTTP server: progress lines on a pipe, the `downloaded` field, playing with the server gone,
/// the storage cap, removal, and a failure told with the download's own wording.
@Suite("tonearm podcast download", .serialized, .blocking)
struct DownloadCommandTests {
    /// A 16-bit stereo WAV of `seconds` at 48 kHz (a ramp, so it is not silence).
    static func wav(seconds: Int) -> Data {
        PCMWAV.data(
            frames: seconds * 48_000, sampleRate: 48_000, left: { Int16(truncatingIfNeeded: $0 % 20_000) },
            right: { Int16(truncatingIfNeeded: -($0 % 20_000)) })
    }

    @Test func downloadListPlayOfflineCapAndRemove() throws {
        let home = LibraryCommandTests.dataHome()
        let audio = Self.wav(seconds: 2)
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/feed":
                return .complete(
                    contentType: "application/rss+xml",
                    body: LibraryCommandTests.feed(
                        title: "Offline Show",
                        items: [("b", "Second", "http://127.0.0.1:\(request.header("Host")?.split(separator: ":").last ?? "0")/two.wav"),
                                ("a", "First", "http://127.0.0.1:\(request.header("Host")?.split(separator: ":").last ?? "0")/one.wav")]))
            case "/one.wav", "/two.wav": return .file(audio, for: request, etag: "\"e1\"", contentType: "audio/wav")
            default: return .init(status: 404, headers: [("Content-Length", "0")])
            }
        }
        var r = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        r = try CLITests.run(["podcast", "episodes", "Offline Show", "--json"], dataHome: home)
        let episodes = try LibraryCommandTests.json(r.out)
        #expect(episodes.allSatisfy { $0["downloaded"] as? Bool == false })
        let first = try #require(episodes.first { $0["title"] as? String == "First" }?["id"] as? Int)

        // On a pipe, progress comes as lines; the episode is then listed as downloaded.
        r = try CLITests.run(["podcast", "download", "\(first)"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(r.err.contains("download: First: started") && r.err.contains("Downloaded First"), "stderr: \(r.err)")
        #expect(!r.err.contains("\u{1B}"), "no terminal codes on a pipe")
        r = try CLITests.run(["podcast", "episodes", "Offline Show", "--json"], dataHome: home)
        let after = try LibraryCommandTests.json(r.out)
        #expect(after.first { $0["id"] as? Int == first }?["downloaded"] as? Bool == true)
        #expect(after.first { $0["id"] as? Int != first }?["downloaded"] as? Bool == false)
        r = try CLITests.run(["podcast", "episodes", "Offline Show"], dataHome: home)
        #expect(r.out.contains("OFFLINE") && r.out.contains("yes"), "\(r.out)")

        // The server gone, the episode plays from disk to its end.
        server.stop()
        let rendered = home.appendingPathComponent("offline.wav")
        r = try CLITests.run(["play", "--episode", "\(first)", "--output", "wav:\(rendered.path)"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let size = (try? FileManager.default.attributesOfItem(atPath: rendered.path)[.size] as? Int) ?? 0
        #expect(size > 48_000 * 2 * 2, "rendered \(size) bytes")
        r = try CLITests.run(["podcast", "episodes", "Offline Show", "--json"], dataHome: home)
        #expect(try LibraryCommandTests.json(r.out).first { $0["id"] as? Int == first }?["played"] as? Bool == true)

        // Listed with its size; a tiny cap removes it (it was played), so it is not over the cap.
        r = try CLITests.run(["podcast", "downloads", "--json"], dataHome: home)
        let listed = try LibraryCommandTests.json(r.out)
        #expect(listed.count == 1 && listed.first?["bytes"] as? Int == audio.count, "\(r.out)")
        r = try CLITests.run(["podcast", "downloads", "--cap", "1k"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(r.err.contains("Removed the download of First"), "stderr: \(r.err)")
        r = try CLITests.run(["podcast", "downloads", "--json"], dataHome: home)
        #expect(try LibraryCommandTests.json(r.out).isEmpty)
        r = try CLITests.run(["podcast", "downloads", "--remove", "\(first)"], dataHome: home)
        #expect(r.status == 1, "removing a download that is not there fails")
        r = try CLITests.run(["podcast", "downloads", "--cap", "lots"], dataHome: home)
        #expect(r.status != 0 && r.err.contains("--cap"), "stderr: \(r.err)")
    }

    @Test func aFailedDownloadIsToldInTheDownloadsOwnWordsAndExitsNonZero() throws {
        let home = LibraryCommandTests.dataHome()
        let server = try TestHTTPServer { request in
            if request.path == "/feed" {
                let port = request.header("Host")?.split(separator: ":").last ?? "0"
                return .complete(
                    contentType: "application/rss+xml",
                    body: LibraryCommandTests.feed(title: "Gone Show", items: [("a", "Lost", "http://127.0.0.1:\(port)/lost.mp3")]))
            }
            return .init(status: 404, headers: [("Content-Length", "0")])
        }
        defer { server.stop() }
        var r = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        r = try CLITests.run(["podcast", "download", "Gone Show"], dataHome: home)
        #expect(r.status == 1)
        let wording = Texts.string("error.download.httpNotFound.message", in: .english)
        #expect(r.err.contains("Lost") && r.err.contains(wording), "stderr: \(r.err)")
        r = try CLITests.run(["podcast", "episodes", "Gone Show"], dataHome: home)
        #expect(r.out.contains("failed"), "\(r.out)")
    }
}
