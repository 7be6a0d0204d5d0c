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

    /// A session with bells between two plain sessions is a part of its own: `queue play` goes
    /// on after each part on the same output, the bells ring in the middle part only, and every
    /// entry that ended leaves the queue.
    @Test func aSessionWithLayersPlaysAsAPartOfItsOwnAndTheQueueGoesOn() throws {
        let home = LibraryCommandTests.dataHome()
        let (dir, tone) = try PlaybackCommandTests.tone(seconds: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["Before", "After"] {
            let file = dir.appendingPathComponent("\(name).json")
            try #"{"name": "\#(name)", "stages": [{"title": "\#(name)", "source": "\#(tone.path)"}]}"#.write(to: file, atomically: true, encoding: .utf8)
            let added = try CLITests.run(["session", "add", file.path], dataHome: home)
            #expect(added.status == 0, "stderr: \(added.err)")
        }
        let bell = try TimerCommandTests.bell(in: dir)
        let kept = try CLITests.run(["timer", "2s", "--bell", bell.path, "--save", "Sit", "--output", "null", "--fast"], dataHome: home)
        #expect(kept.status == 0, "stderr: \(kept.err)")
        for name in ["Before", "Sit", "After"] {
            let queued = try CLITests.run(["queue", "add", "--session", name], dataHome: home)
            #expect(queued.status == 0, "stderr: \(queued.err)")
        }

        let rendered = dir.appendingPathComponent("queue.wav")
        let r = try PlaybackCommandTests.run(
            ["queue", "play", "--output", "wav:\(rendered.path)", "--events", "jsonl"], environment: ["XDG_DATA_HOME": home.path])
        #expect(r.status == 0, "stderr: \(r.err)")
        // In order: Before's stage, the bells at 0 and 2 s of the session, After's stage.
        let order: [String] = r.events.compactMap { event in
            switch (event["event"] as? String, event["notice"] as? String) {
            case ("notice", "trackFinished"): (event["track"] as? [String: Any])?["title"] as? String
            case ("notice", "bell"): "bell \(event["at"] as? Double ?? -1)"
            default: nil
            }
        }
        let marks = order.filter { $0 == "Before" || $0 == "After" || $0.hasPrefix("bell") }
        #expect(marks == ["Before", "bell 0.0", "bell 2.0", "After"], "\(order)")
        // One output for the whole queue: a second of each plain session and the timer's two.
        let size = (try? FileManager.default.attributesOfItem(atPath: rendered.path)[.size] as? Int) ?? 0
        #expect(size > Int(3.5 * 48_000 * 4), "rendered \(size) bytes")
        #expect(try LibraryCommandTests.json(try CLITests.run(["queue", "--json"], dataHome: home).out).isEmpty)
    }
}
