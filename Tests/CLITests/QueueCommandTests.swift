import Foundation
import PlayerCore
import TestProcesses
import Testing

/// `tonearm queue ...` and the played marks through the binary, against a real HTTP server.
@Suite("tonearm queue", .serialized, .blocking)
struct QueueCommandTests {
    @Test func queueAddMoveListPlayAndMarks() throws {
        let home = LibraryCommandTests.dataHome()
        let audio = DownloadCommandTests.wav(seconds: 1)
        let server = try TestHTTPServer { request in
            let port = request.header("Host")?.split(separator: ":").last ?? "0"
            if request.path == "/feed" {
                return .complete(
                    contentType: "application/rss+xml",
                    body: LibraryCommandTests.feed(
                        title: "Queue Show",
                        items: [("b", "Second", "http://127.0.0.1:\(port)/b.wav"), ("a", "First", "http://127.0.0.1:\(port)/a.wav")]))
            }
            return .file(audio, for: request, contentType: "audio/wav")
        }
        defer { server.stop() }
        var r = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let episodes = try LibraryCommandTests.json(try CLITests.run(["podcast", "episodes", "Queue Show", "--json"], dataHome: home).out)
        let first = try #require(episodes.first { $0["title"] as? String == "First" }?["id"] as? Int)
        let second = try #require(episodes.first { $0["title"] as? String == "Second" }?["id"] as? Int)

        r = try CLITests.run(["queue"], dataHome: home)
        #expect(r.out.contains("The queue is empty"), "\(r.out)")
        r = try CLITests.run(["queue", "add", "--episode", "\(first)"], dataHome: home)
        #expect(r.status == 0 && r.out.contains("Queued First at 1"), "\(r.out) \(r.err)")
        r = try CLITests.run(["queue", "add", "--episode", "\(second)", "--at", "1"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        r = try CLITests.run(["queue", "add", "--episode", "\(second)"], dataHome: home)
        #expect(r.status == 1, "an episode is queued once")
        var queue = try LibraryCommandTests.json(try CLITests.run(["queue", "list", "--json"], dataHome: home).out)
        #expect(queue.compactMap { $0["title"] as? String } == ["Second", "First"])
        let secondEntry = try #require(queue.first?["id"] as? Int)
        r = try CLITests.run(["queue", "move", "\(secondEntry)", "2"], dataHome: home)
        #expect(r.status == 0 && r.out.contains("First") && r.out.contains("ENTRY"), "\(r.out) \(r.err)")
        queue = try LibraryCommandTests.json(try CLITests.run(["queue", "--json"], dataHome: home).out)
        #expect(queue.compactMap { $0["title"] as? String } == ["First", "Second"])
        #expect(queue.compactMap { $0["kind"] as? String } == ["episode", "episode"])

        // Played in order to a file; each episode that ends is played and leaves the queue.
        let rendered = home.appendingPathComponent("queue.wav")
        r = try CLITests.run(["queue", "play", "--output", "wav:\(rendered.path)"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let size = (try? FileManager.default.attributesOfItem(atPath: rendered.path)[.size] as? Int) ?? 0
        // More than one episode's second (the end fade-out takes a little of the last).
        #expect(size > 3 * 48_000 * 2, "rendered \(size) bytes: both episodes")
        #expect(try LibraryCommandTests.json(try CLITests.run(["queue", "--json"], dataHome: home).out).isEmpty)
        var listed = try LibraryCommandTests.json(try CLITests.run(["podcast", "episodes", "Queue Show", "--json"], dataHome: home).out)
        #expect(listed.allSatisfy { $0["played"] as? Bool == true })

        r = try CLITests.run(["podcast", "mark", "\(first)", "unplayed"], dataHome: home)
        #expect(r.status == 0 && r.out.contains("First: unplayed"), "\(r.out) \(r.err)")
        r = try CLITests.run(["podcast", "list"], dataHome: home)
        #expect(r.out.contains("UNPLAYED") && r.out.contains("NEW"), "\(r.out)")
        r = try CLITests.run(["podcast", "mark-all-played", "Queue Show"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        listed = try LibraryCommandTests.json(try CLITests.run(["podcast", "episodes", "Queue Show", "--json"], dataHome: home).out)
        #expect(listed.allSatisfy { $0["played"] as? Bool == true })
        r = try CLITests.run(["queue", "play", "--output", "null"], dataHome: home)
        #expect(r.status == 0 && r.out.contains("The queue is empty"), "\(r.out) \(r.err)")
    }
}
