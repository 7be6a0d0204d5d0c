import Foundation
import PlayerCore
import TestProcesses
import Testing

/// `tonearm podcast import` against a host that accepts and drops every connection, through the
/// built binary: the breaker stops the attempts early, the output names the host and says when
/// it is tried again, the texts speak of feeds (not playback), and `tonearm errors` shows the
/// retry statistics the run left.
@Suite("tonearm resilience", .serialized, .blocking)
struct ResilienceCommandTests {
    @Test func importingTwentyFeedsFromADroppingHostStopsAtTheBreaker() throws {
        let server = try DroppingServer()
        defer { server.stop() }
        let home = LibraryCommandTests.dataHome()
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let opml = home.appendingPathComponent("dead.opml")
        let outlines = (1...20).map { #"<outline text="Feed \#($0)" type="rss" xmlUrl="\#(server.baseURL)/feed-\#($0).xml"/>"# }
        try (#"<?xml version="1.0"?><opml version="2.0"><body>"# + outlines.joined(separator: "\n") + "</body></opml>")
            .write(to: opml, atomically: true, encoding: .utf8)

        let r = try CLITests.run(["podcast", "import", opml.path], dataHome: home)
        #expect(r.status == 1)
        #expect(server.connections <= 6, "\(server.connections) connections; stderr:\n\(r.err)")
        #expect(r.out.contains("0 of 20 feeds imported"), "stdout:\n\(r.out)")
        let host = "127.0.0.1:\(server.port)"
        // Why the rest were not tried: the host, and when Tonearm tries it again.
        #expect(r.err.contains("feeds not tried: Server Not Responding"), "stderr:\n\(r.err)")
        #expect(r.err.contains("\(host) failed several times in a row"), "stderr:\n\(r.err)")
        // 30 s from the moment the breaker opened; a busy machine may take a second or two to get
        // to the refusal, so the number is read rather than matched.
        let when = try #require(r.err.firstMatch(of: #/Tonearm tries it again in (\d+) s/#), "stderr:\n\(r.err)")
        #expect((20...30).contains(Int(when.1) ?? 0))
        // The feeds that were tried fail with a feed's wording, not playback's.
        #expect(r.err.contains("The server closed the connection before the podcast feed arrived."), "stderr:\n\(r.err)")
        #expect(!r.err.contains("during playback") && !r.err.contains("reconnects automatically"), "stderr:\n\(r.err)")

        let errors = try CLITests.run(["errors"], dataHome: home)
        #expect(errors.status == 0, "stderr: \(errors.err)")
        #expect(errors.out.contains("Network.circuitOpen"), "stdout:\n\(errors.out)")
        #expect(errors.out.contains("RETRY SUCCESS") && errors.out.contains("podcastFeed"), "stdout:\n\(errors.out)")
        #expect(errors.out.contains("Retry success rate: 0 %"), "stdout:\n\(errors.out)")

        let json = try CLITests.run(["errors", "--json"], dataHome: home)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let retries = try #require(object["retryStatistics"] as? [String: Any])
        let operations = try #require(retries["operations"] as? [[String: Any]])
        let feed = try #require(operations.first { $0["operation"] as? String == "podcastFeed" })
        #expect(feed["runs"] as? Int == 20)
        #expect(object["totalErrors"] as? Int == 20)
    }
}
