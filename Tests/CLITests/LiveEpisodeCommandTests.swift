import Foundation
import PlayerCore
import TestProcesses
import Testing

/// `podcast:liveItem` from a feed served on loopback: an announced episode says when it starts
/// and does not play; one on air plays as radio does (its connection closing is a drop, followed
/// by a reconnect, never an end); one that ended plays its recording as any episode.
@Suite("Live episodes (podcast:liveItem)", .serialized, .blocking)
struct LiveEpisodeCommandTests {
    @Test func pendingLiveAndEndedEpisodesEachDoWhatTheyShould() throws {
        let home = LibraryCommandTests.dataHome()
        let audio = DownloadCommandTests.wav(seconds: 2)
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/feed":
                let xml = """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>On Air</title>
                    <podcast:liveItem status="pending" start="2031-05-01T18:00:00Z" end="2031-05-01T19:00:00Z">
                      <guid>next</guid><title>Next week</title><enclosure url="/stream" type="audio/wav"/></podcast:liveItem>
                    <podcast:liveItem status="LIVE" start="2026-11-27T10:00:00Z"><guid>now</guid><title>Right now</title>
                      <enclosure url="/stream" type="audio/wav"/></podcast:liveItem>
                    <podcast:liveItem status="ended" start="2026-11-20T10:00:00Z"><guid>then</guid><title>Last week</title>
                      <enclosure url="/recording.wav" type="audio/wav"/></podcast:liveItem>
                    <podcast:liveItem status="rumoured"><guid>maybe</guid><title>Maybe</title><enclosure url="/stream"/></podcast:liveItem>
                    </channel></rss>
                    """
                return .complete(contentType: "application/rss+xml", body: Data(xml.utf8))
            default:
                // The stream: two seconds, then the connection closes (as a broadcast that drops).
                return .complete(contentType: "audio/wav", body: audio)
            }
        }
        defer { server.stop() }
        var r = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
        #expect(r.status == 0, "\(r.err)")
        r = try CLITests.run(["podcast", "episodes", "On Air"], dataHome: home)
        #expect(r.out.contains("Next week [live from 2031-05-01 18:00 UTC]"), "\(r.out)")
        #expect(r.out.contains("Right now [LIVE now]") && r.out.contains("Last week") && !r.out.contains("Maybe"), "\(r.out)")
        let episodes = try LibraryCommandTests.json(try CLITests.run(["podcast", "episodes", "On Air", "--json"], dataHome: home).out)
        func id(_ title: String) throws -> Int { try #require(episodes.first { $0["title"] as? String == title }?["id"] as? Int) }
        #expect((episodes.first { $0["title"] as? String == "Right now" }?["live"] as? [String: Any])?["phase"] as? String == "live")

        // Announced: it says when, and plays nothing.
        r = try CLITests.run(["play", "--episode", "\(try id("Next week"))", "--output", "null"], dataHome: home)
        #expect(r.status == 1 && r.err.contains("2031-05-01T18:00:00Z"), "\(r.err)")

        // On air: the stream closing is a drop; the player reconnects.
        let live = try PlaybackCommandTests.run(
            ["play", "--episode", "\(try id("Right now"))", "--output", "null", "--events", "jsonl"], environment: ["XDG_DATA_HOME": home.path],
            inputs: [({ events in events.contains { $0["state"] as? String == "reconnecting" } }, "stop")])
        #expect(live.status == 0, "\(live.err)")
        let names = PlaybackCommandTests.stateNames(live.events)
        #expect(names.contains("playing") && names.contains("reconnecting") && !names.contains("finished"), "\(names)")

        // Ended: its recording, played to its end like any episode, and marked played.
        let ended = try PlaybackCommandTests.run(
            ["play", "--episode", "\(try id("Last week"))", "--output", "null", "--fast", "--events", "jsonl"], environment: ["XDG_DATA_HOME": home.path])
        #expect(PlaybackCommandTests.stateNames(ended.events).last == "finished", "\(ended.err)")
    }
}
