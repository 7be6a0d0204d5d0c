import Foundation
import PlayerCore
import Presentation
import TestProcesses
import Testing

/// The library commands end to end through the binary, each test with a library of its own:
/// stations, sessions, podcasts (from a real HTTP server), `play --episode` with its saved place,
/// and `tonearm errors` with nothing personal in the database or the export.
@Suite("tonearm library commands", .serialized, .blocking)
struct LibraryCommandTests {
    static func dataHome() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-library-\(UUID().uuidString)")
    }

    static func json(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "not a JSON array: \(text)")
    }

    static func feed(title: String, items: [(guid: String, title: String, audio: String?)]) -> Data {
        let entries = items.map { item -> String in
            let enclosure = item.audio.map { #"<enclosure url="\#($0)" length="0" type="audio/mpeg"/>"# } ?? ""
            return "<item><guid>\(item.guid)</guid><title>\(item.title)</title>\(enclosure)</item>"
        }.joined()
        return Data(#"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>\#(title)</title>\#(entries)</channel></rss>"#.utf8)
    }

    @Test func stationsAddListImportRemoveAndRefuseUnknownNames() throws {
        let home = Self.dataHome()
        var r = try CLITests.run(["station", "add", "Night FM", "https://radio.example.org/night.mp3", "--genre", "Jazz"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        r = try CLITests.run(["station", "add", "night fm", "https://radio.example.org/other.mp3"], dataHome: home)
        #expect(r.status == 1)
        #expect(r.err.contains(PlaybackError(.alreadyInLibrary).message(in: .english)), "stderr: \(r.err)")

        let dir = Self.dataHome()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let pls = dir.appendingPathComponent("stations.pls")
        try """
            [playlist]
            NumberOfEntries=3
            File1=http://one.example.org/a.mp3
            Title1=Station One
            File2=/home/someone/local.mp3
            File3=https://two.example.org/b.aac
            Title3=Station Two\u{1B}[31m
            """.write(to: pls, atomically: true, encoding: .utf8)
        r = try CLITests.run(["station", "import", pls.path], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")

        r = try CLITests.run(["station", "list", "--json"], dataHome: home)
        let stations = try Self.json(r.out)
        #expect(stations.compactMap { $0["name"] as? String }.sorted() == ["Night FM", "Station One", "Station Two[31m"])
        #expect(stations.allSatisfy { $0["id"] is Int })
        #expect(!r.out.contains("\u{1B}"))

        r = try CLITests.run(["station", "remove", "Station One"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        r = try CLITests.run(["play", "--station", "Station One", "--output", "null"], dataHome: home)
        #expect(r.status == 1)
        #expect(r.err.contains(PlaybackError(.notInLibrary).message(in: .english)), "stderr: \(r.err)")
        // Both refusals are in the persistent analytics, by operation, without the names.
        let exported = Self.dataHome().appendingPathExtension("json")
        r = try CLITests.run(["errors", "--export", exported.path], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let events = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: exported)) as? [[String: Any]])
        #expect(events.compactMap { $0["operation"] as? String } == ["addStation", "playStation"])
        #expect(try !String(contentsOf: exported, encoding: .utf8).contains("Station One"))
    }

    @Test func sessionsAreKeptByNameAndPlayed() throws {
        let (dir, tone) = try PlaybackCommandTests.tone(seconds: 2)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("calm.json")
        try #"{"name": "Calm", "stages": [{"title": "One", "source": "\#(tone.lastPathComponent)"}, {"title": "Two", "source": "\#(tone.lastPathComponent)", "crossfade": 0}]}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let home = Self.dataHome()
        var r = try CLITests.run(["session", "add", file.path], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        r = try CLITests.run(["session", "list", "--json"], dataHome: home)
        let sessions = try Self.json(r.out)
        #expect(sessions.first?["name"] as? String == "Calm")
        #expect(sessions.first?["stageCount"] as? Int == 2)

        let played = try PlaybackCommandTests.run(
            ["play", "--session", "Calm", "--output", "null", "--fast", "--events", "jsonl"], environment: ["XDG_DATA_HOME": home.path])
        #expect(played.status == 0, "stderr: \(played.err)")
        #expect(PlaybackCommandTests.stateNames(played.events).last == "finished")

        // A broken session file is refused when it is added, with the reason.
        let broken = dir.appendingPathComponent("broken.json")
        try #"{"stages": [{"source": "x.mp3", "lops": 2}]}"#.write(to: broken, atomically: true, encoding: .utf8)
        r = try CLITests.run(["session", "add", broken.path], dataHome: home)
        #expect(r.status == 1)
        // `tonearm session FILE` still plays a file directly.
        r = try CLITests.run(["session", file.path, "--output", "null", "--fast"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
    }

    @Test func podcastsFromAServerAndAnEpisodeWithoutAudio() throws {
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/feed": .complete(contentType: "application/rss+xml", body: Self.feed(title: "Night Talks", items: [("a", "Silent one", nil)]))
            default: .complete(status: 404, contentType: "text/plain", body: Data())
            }
        }
        defer { server.stop() }
        let home = Self.dataHome()
        var r = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        r = try CLITests.run(["podcast", "list", "--json"], dataHome: home)
        let podcasts = try Self.json(r.out)
        #expect(podcasts.first?["title"] as? String == "Night Talks")
        let podcastID = try #require(podcasts.first?["id"] as? Int)
        r = try CLITests.run(["podcast", "episodes", "Night Talks", "--json"], dataHome: home)
        let episodes = try Self.json(r.out)
        let episodeID = try #require(episodes.first?["id"] as? Int)
        #expect(episodes.first?["podcastID"] as? Int == podcastID)

        // No enclosure -> failed, not recoverable, with the missing-audio message.
        let played = try PlaybackCommandTests.run(
            ["play", "--episode", "\(episodeID)", "--output", "null", "--events", "jsonl"], environment: ["XDG_DATA_HOME": home.path])
        #expect(played.status == 1)
        #expect(played.err.contains("This episode doesn't have audio available"), "stderr: \(played.err)")
        let failed = played.events.last { $0["state"] as? String == "failed" }
        #expect(failed?["recoverable"] as? Bool == false)

        // A dead feed in an OPML import is reported; export prints the one subscription as OPML.
        let opml = home.appendingPathComponent("subs.opml")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try """
            <?xml version="1.0"?><opml version="2.0"><body>
            <outline text="Dead" type="rss" xmlUrl="\(server.baseURL)/dead"/>
            <outline text="Night" type="rss" xmlUrl="\(server.baseURL)/feed"/>
            </body></opml>
            """.write(to: opml, atomically: true, encoding: .utf8)
        r = try CLITests.run(["podcast", "import", opml.path], dataHome: home)
        #expect(r.status == 1)
        // Worded for a feed, not for a stream or an episode being played.
        #expect(r.err.contains(PlaybackError(.httpNotFound).text(in: .english, for: .feed).message), "stderr: \(r.err)")
        #expect(r.out.contains("Already subscribed"))
        r = try CLITests.run(["podcast", "export"], dataHome: home)
        #expect(r.status == 0)
        #expect(r.out.contains("<opml") && r.out.contains("/feed"))

        r = try CLITests.run(["podcast", "remove", "\(podcastID)"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        r = try CLITests.run(["podcast", "list", "--json"], dataHome: home)
        #expect(try Self.json(r.out).isEmpty)
    }

    @Test func anEpisodeKeepsItsPlaceThroughKillNine() throws {
        let (dir, tone) = try PlaybackCommandTests.tone(seconds: 40)
        defer { try? FileManager.default.removeItem(at: dir) }
        let audio = try Data(contentsOf: tone)
        let server = try TestHTTPServer { request in
            request.path == "/feed"
                ? .complete(contentType: "application/rss+xml", body: Self.feed(title: "Long", items: [("e1", "Episode", "/audio.flac")]))
                : .complete(contentType: "audio/flac", body: audio)
        }
        defer { server.stop() }
        let home = Self.dataHome()
        let r = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let episodeID = try #require(try Self.json(try CLITests.run(["podcast", "episodes", "Long", "--json"], dataHome: home).out).first?["id"] as? Int)

        // Play in real time, and kill -9 once 11 s have sounded.
        let killed = try PlaybackCommandTests.run(
            ["play", "--episode", "\(episodeID)", "--output", "null", "--events", "jsonl"], environment: ["XDG_DATA_HOME": home.path],
            inputs: [({ events in events.contains { ($0["position"] as? Double ?? 0) >= 11 } }, "<KILL>")])
        #expect(killed.status == SIGKILL || killed.status == 128 + SIGKILL || killed.status != 0)
        let lastHeard = killed.events.compactMap { $0["event"] as? String == "position" ? $0["position"] as? Double : nil }.max() ?? 0
        #expect(lastHeard >= 11)

        let saved = try #require(try Self.json(try CLITests.run(["podcast", "episodes", "Long", "--json"], dataHome: home).out).first?["position"] as? Double)
        #expect(saved >= lastHeard - 5 && saved <= lastHeard, "saved \(saved) s, last heard \(lastHeard) s")

        // Playing it again starts there, not at 0.
        let again = try PlaybackCommandTests.run(
            ["play", "--episode", "\(episodeID)", "--output", "null", "--events", "jsonl"], environment: ["XDG_DATA_HOME": home.path],
            inputs: [({ events in events.contains { $0["event"] as? String == "position" } }, "stop")])
        #expect(again.status == 0, "stderr: \(again.err)")
        let firstPosition = try #require(again.events.first { $0["event"] as? String == "position" }?["position"] as? Double)
        #expect(abs(firstPosition - saved) < 1, "resumed at \(firstPosition) s, saved \(saved) s")
    }

    @Test func errorsSummaryAndExportHoldNothingPersonal() throws {
        let home = Self.dataHome()
        let server = try TestHTTPServer { _ in .complete(status: 404, contentType: "text/plain", body: Data()) }
        defer { server.stop() }
        // Two failures whose inputs carry canaries: a token in a URL, a home path.
        var r = try CLITests.run(["play", server.url("/private/feed?token=CANARY-TOKEN-77").absoluteString, "--output", "null"], dataHome: home)
        #expect(r.status == 1)
        r = try CLITests.run(["play", "/home/canary-alice/secret-episode.mp3", "--output", "null"], dataHome: home)
        #expect(r.status == 1)

        r = try CLITests.run(["errors", "--json"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(summary["totalErrors"] as? Int == 2)
        for key in ["errorsLast24Hours", "errorsLast7Days", "retryableErrorsPercentage", "topErrorTypes", "topErrorOperations", "resolutionStats", "successRate"] {
            #expect(summary[key] != nil, "summary lacks \(key)")
        }
        r = try CLITests.run(["errors"], dataHome: home)
        #expect(r.out.contains("Total errors") && r.out.contains("Resource.fileNotFound"), "table: \(r.out)")

        let export = home.appendingPathComponent("events.json")
        r = try CLITests.run(["errors", "--export", export.path], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        var bytes = try Data(contentsOf: export)
        let library = home.appendingPathComponent("tonearm")
        for name in try FileManager.default.contentsOfDirectory(atPath: library.path) {
            bytes += try Data(contentsOf: library.appendingPathComponent(name))
        }
        for canary in ["CANARY-TOKEN-77", "canary-alice", "secret-episode", "/private/feed", "127.0.0.1"] {
            #expect(bytes.range(of: Data(canary.utf8)) == nil, "\(canary) was stored")
        }
    }
}
