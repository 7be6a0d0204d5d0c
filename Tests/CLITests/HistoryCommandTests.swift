import Foundation
import PlayerCore
import TestProcesses
import Testing

/// `tonearm history` and `tonearm favourites` through the binary: titles heard while `tonearm
/// play` ran against a real HTTP server sending ICY titles, then listed and exported.
@Suite("tonearm history and favourites", .serialized, .blocking)
struct HistoryCommandTests {
    /// A station named Fixture FM sending `titles` in its ICY blocks, then holding the connection.
    static func station(titles: [String]) throws -> TestHTTPServer {
        let body = IcyBody.make(try LoggingCommandTests.mp3.get(), metaint: 8_000, titles: titles)
        return try TestHTTPServer { _ in
            TestHTTPServer.Response(
                status: 200, headers: [("Content-Type", "audio/mpeg"), ("icy-name", "Fixture FM"), ("icy-metaint", "8000")],
                body: [.bytes(body), .hold])
        }
    }

    @Test func titlesHeardWhilePlayingAreListedAsTableAndJSON() throws {
        let server = try Self.station(titles: ["Night Band - First Song", "Night Band - First Song", "Day Band - Second"])
        defer { server.stop() }
        let home = LibraryCommandTests.dataHome()
        let played = try PlaybackCommandTests.run(
            [ "play", server.url("/live").absoluteString, "--output", "null", "--events", "jsonl"], environment: ["XDG_DATA_HOME": home.path],
            inputs: [({ events in events.contains { $0["event"] as? String == "metadata" && $0["title"] as? String == "Second" } }, "stop")])
        #expect(played.status == 0, "stderr: \(played.err)")

        var r = try CLITests.run(["history", "--json"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let heard = try LibraryCommandTests.json(r.out)
        #expect(heard.compactMap { $0["title"] as? String } == ["Second", "First Song"])
        #expect(heard.compactMap { $0["artist"] as? String } == ["Day Band", "Night Band"])
        #expect(heard.allSatisfy { $0["station"] as? String == "Fixture FM" && $0["heardAt"] is String && $0["liked"] as? Bool == false })

        r = try CLITests.run(["history", "--station", "fixture fm"], dataHome: home)
        #expect(r.out.contains("Night Band – First Song") && r.out.contains("Fixture FM"), "out: \(r.out)")
        r = try CLITests.run(["history", "--station", "Other FM"], dataHome: home)
        #expect(r.status == 0 && r.out.contains("Nothing heard yet on that station"))

        r = try CLITests.run(["favourites"], dataHome: home)
        #expect(r.out.contains("No favourites yet"))
    }

    /// `like` on stdin keeps the song playing now; the favourites come out as a table, as JSON
    /// and as CSV written to a file (a title a spreadsheet would run as a formula is quoted).
    @Test func aSongLikedOnStdinIsExportedAsCSVAndJSON() throws {
        let server = try Self.station(titles: ["Night Band - =HYPERLINK(\"x\"), live"])
        defer { server.stop() }
        let home = LibraryCommandTests.dataHome()
        @Sendable func heard(_ events: [[String: Any]]) -> Bool { events.contains { $0["event"] as? String == "metadata" && $0["artist"] as? String == "Night Band" } }
        let played = try PlaybackCommandTests.run(
            ["play", server.url("/live").absoluteString, "--output", "null", "--events", "jsonl"], environment: ["XDG_DATA_HOME": home.path],
            inputs: [(heard, "like"), (heard, "stop")])
        #expect(played.status == 0, "stderr: \(played.err)")
        #expect(played.err.contains("tonearm: liked"), "stderr: \(played.err)")

        var r = try CLITests.run(["favourites", "--format", "json"], dataHome: home)
        let liked = try LibraryCommandTests.json(r.out)
        #expect(liked.count == 1)
        #expect(liked.first?["title"] as? String == "=HYPERLINK(\"x\"), live" && liked.first?["artist"] as? String == "Night Band")
        #expect(liked.first?["station"] as? String == "Fixture FM" && liked.first?["likedAt"] is String)
        let file = home.appendingPathComponent("favourites.csv")
        r = try CLITests.run(["favourites", "--format", "csv", "--export", file.path], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let csv = try String(contentsOf: file, encoding: .utf8)
        let lines = csv.components(separatedBy: "\r\n")
        #expect(lines.first == "title,artist,station,heardAt,likedAt")
        #expect(lines.dropFirst().first?.hasPrefix("\"'=HYPERLINK(\"\"x\"\"), live\",Night Band,Fixture FM,") == true, "csv: \(csv)")
        r = try CLITests.run(["history", "--json"], dataHome: home)
        #expect(try LibraryCommandTests.json(r.out).first?["liked"] as? Bool == true)
    }
}
