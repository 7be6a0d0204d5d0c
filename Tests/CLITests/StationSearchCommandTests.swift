import Foundation
import PlayerCore
import TestProcesses
import Testing

/// `tonearm station search` through the binary, against a local directory server answering with
/// hand-written radio-browser JSON: where the server comes from, the table and JSON, `--add`, the
/// click counted when a station added from the directory plays, and a directory that is down.
@Suite("tonearm station search", .serialized, .blocking)
struct StationSearchCommandTests {
    @Test func searchesPrintsAndAddsWithTheServerFromTheFlagTheEnvironmentOrTheConfigFile() throws {
        let directory = try DirectoryServer(streamBase: "http://radio.example:8000")
        defer { directory.stop() }
        let home = LibraryCommandTests.dataHome()

        var r = try CLITests.run(
            ["station", "search", "jazz", "--country", "de", "--order", "clicks", "--json", "--directory-url", directory.baseURL.absoluteString],
            dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let found = try LibraryCommandTests.json(r.out)
        #expect(found.compactMap { $0["name"] as? String } == ["Jazz Radio Blues", "Evil[2J Jazz FM", "HLS Jazz"])
        #expect(found.first?["streamURL"] as? String == "http://radio.example:8000/blues")
        #expect(!r.out.contains("\u{1B}"))
        let asked = try #require(directory.searches.last)
        #expect(asked.uri.contains("name=jazz") && asked.uri.contains("countrycode=DE") && asked.uri.contains("order=clickcount"))

        // The environment variable, then the config file, when there is no flag.
        r = try CLITests.run(["station", "search", "--tag", "blues"], dataHome: home, environment: ["TONEARM_DIRECTORY_URL": directory.baseURL.absoluteString])
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(r.out.contains("Jazz Radio Blues") && r.out.contains("MP3 128k · FR · jazz, blues, smooth jazz"))
        #expect(r.out.contains("--add N"))
        #expect(directory.searches.last?.uri.contains("tag=blues") == true)

        let config = LibraryCommandTests.dataHome()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("tonearm"), withIntermediateDirectories: true)
        try "[directory]\nurl = \"\(directory.baseURL.absoluteString)\"\n".write(
            to: config.appendingPathComponent("tonearm/config.toml"), atomically: true, encoding: .utf8)
        r = try CLITests.run(["station", "search", "hls", "--add", "3"], dataHome: home, environment: ["XDG_CONFIG_HOME": config.path])
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(r.out.contains("Added HLS Jazz"))
        r = try CLITests.run(["station", "list", "--json"], dataHome: home)
        let kept = try LibraryCommandTests.json(r.out)
        #expect(kept.first?["name"] as? String == "HLS Jazz")
        #expect(kept.first?["directoryID"] as? String == "e5f6a7b8-0000-4000-8000-000000000003")
        #expect(kept.first?["genre"] as? String == "jazz")

        r = try CLITests.run(["station", "search", "jazz", "--add", "9", "--directory-url", directory.baseURL.absoluteString], dataHome: home)
        #expect(r.status == 1)
        #expect(r.err.contains("found 3 stations"), "stderr: \(r.err)")
    }

    @Test func aDirectoryThatIsDownOrMisconfiguredIsATypedError() throws {
        let down = try DirectoryServer(failing: true)
        defer { down.stop() }
        var r = try CLITests.run(["station", "search", "jazz", "--directory-url", down.baseURL.absoluteString])
        #expect(r.status == 1)
        #expect(r.err.contains("Server Unavailable") && r.err.contains("503"), "stderr: \(r.err)")
        r = try CLITests.run(["station", "search", "jazz"], environment: ["TONEARM_DIRECTORY_URL": "file:///etc/passwd"])
        #expect(r.status == 1)
        #expect(r.err.contains("TONEARM_DIRECTORY_URL must be an http(s) URL"), "stderr: \(r.err)")
    }

    @Test func playingAStationAddedFromTheDirectoryCountsAClick() throws {
        let audio = try LoggingCommandTests.mp3.get()
        let stream = try TestHTTPServer { _ in
            TestHTTPServer.Response(status: 200, headers: [("Content-Type", "audio/mpeg")], body: [.bytes(audio), .hold])
        }
        defer { stream.stop() }
        let directory = try DirectoryServer(streamBase: stream.baseURL)
        defer { directory.stop() }
        let home = LibraryCommandTests.dataHome()
        let environment = ["TONEARM_DIRECTORY_URL": directory.baseURL.absoluteString, "XDG_DATA_HOME": home.path]
        var r = try CLITests.run(["station", "search", "jazz", "--add", "1"], dataHome: home, environment: environment)
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(directory.clicks.isEmpty)

        let played = try PlaybackCommandTests.run(
            ["play", "--station", "Jazz Radio Blues", "--output", "null", "--events", "jsonl"], environment: environment,
            inputs: [({ events in
                directory.clicks.count == 1 && events.contains { $0["event"] as? String == "state" && $0["state"] as? String == "playing" }
            }, "stop")])
        #expect(played.status == 0, "stderr: \(played.err)")
        #expect(directory.clicks == ["96062a7b-0601-11e8-ae97-52543be04c81"])
        #expect(stream.requests.first?.path == "/blues")
        r = try CLITests.run(["station", "list"], dataHome: home)
        #expect(r.out.contains("Jazz Radio Blues"))
    }
}
