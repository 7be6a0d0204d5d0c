import Foundation
import TestProcesses
import Testing

/// Silence trimming as a listener uses it: turned on for one podcast, an episode with long gaps
/// plays shorter, and `tonearm podcast stats` says how much time it saved.
@Suite("tonearm silence trimming", .serialized, .blocking)
struct SilenceTrimmingCommandTests {
    @Test func aPodcastsSettingTrimsItsEpisodesAndStatsCountTheSaving() throws {
        // 2 s of tone, 3 s of silence, 2 s of tone: 2.75 s of the silence goes.
        let sample: (Int) -> Int16 = { frame in
            (96_000..<240_000).contains(frame) ? 0 : Int16(16_384 * sin(2 * Double.pi * 440 * Double(frame) / 48_000))
        }
        let audio = PCMWAV.data(frames: 336_000, sampleRate: 48_000, left: sample, right: sample)
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/feed":
                .complete(
                    contentType: "application/rss+xml",
                    body: LibraryCommandTests.feed(title: "Slow Talk", items: [("a", "Pauses", "http://127.0.0.1:\(request.header("Host")?.split(separator: ":").last ?? "80")/ep.wav")]))
            case "/ep.wav": .file(audio, for: request, contentType: "audio/wav")
            default: .complete(status: 404, contentType: "text/plain", body: Data())
            }
        }
        defer { server.stop() }
        let home = LibraryCommandTests.dataHome()
        defer { try? FileManager.default.removeItem(at: home) }
        var r = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        r = try CLITests.run(["podcast", "stats"], dataHome: home)
        #expect(r.out.contains("no time yet"), "\(r.out)")
        r = try CLITests.run(["podcast", "trim-silence", "Slow Talk", "on"], dataHome: home)
        #expect(r.status == 0 && r.out.contains("silence trimming on"), "stderr: \(r.err)")
        r = try CLITests.run(["podcast", "episodes", "Slow Talk", "--json"], dataHome: home)
        let episodeID = try #require(try LibraryCommandTests.json(r.out).first?["id"] as? Int)

        let played = try PlaybackCommandTests.run(
            ["play", "--episode", "\(episodeID)", "--output", "null", "--fast", "--events", "jsonl"], environment: ["XDG_DATA_HOME": home.path])
        #expect(played.status == 0, "stderr: \(played.err)")
        let finished = played.events.last { $0["state"] as? String == "finished" }?["t"] as? Double ?? 0
        #expect(abs(finished - 4.25) < 0.1, "7 s with a 3 s gap finished after \(finished) s of audio")

        r = try CLITests.run(["podcast", "stats"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(r.out.contains("0:02") && r.out.contains("Slow Talk") && r.out.contains("in total"), "\(r.out)")
    }
}
