import Foundation
import TestProcesses
import Testing

/// A feed's seasons, episode numbers, guests and support links, served on loopback: listed by
/// `podcast episodes` (sorted by season on request) and `podcast list` (and its JSON); its
/// soundbites played; its Podlove chapters the player's.
@Suite("tonearm podcast: seasons, guests, funding, soundbites, Podlove chapters", .serialized, .blocking)
struct CreditsCommandTests {
    @Test func numbersGuestsAndSupportLinksAreListed() throws {
        let home = LibraryCommandTests.dataHome()
        let server = try TestHTTPServer { _ in
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
                <channel><title>Seasons Show</title>
                <podcast:funding url="https://patreon.example/seasons">Patreon</podcast:funding>
                <podcast:person>Alice</podcast:person>
                <item><guid>c</guid><title>Third</title><pubDate>Wed, 03 Jan 2024 10:00:00 GMT</pubDate>
                  <itunes:season>2</itunes:season><itunes:episode>1</itunes:episode><enclosure url="/c.mp3" type="audio/mpeg"/></item>
                <item><guid>b</guid><title>Second</title><pubDate>Tue, 02 Jan 2024 10:00:00 GMT</pubDate>
                  <podcast:season>1</podcast:season><podcast:episode>2</podcast:episode>
                  <podcast:person role="guest">Bob</podcast:person><enclosure url="/b.mp3" type="audio/mpeg"/></item>
                <item><guid>a</guid><title>First</title><pubDate>Mon, 01 Jan 2024 10:00:00 GMT</pubDate>
                  <podcast:season>1</podcast:season><podcast:episode>1</podcast:episode><enclosure url="/a.mp3" type="audio/mpeg"/></item>
                </channel></rss>
                """
            return .complete(contentType: "application/rss+xml", body: Data(xml.utf8))
        }
        defer { server.stop() }
        var r = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")

        r = try CLITests.run(["podcast", "episodes", "Seasons Show", "--sort", "season"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("NO.") == true, "\(r.out)")
        let titles = lines.dropFirst().prefix(3).map { line in ["First", "Second", "Third"].first { line.contains($0) } }
        #expect(titles == ["First", "Second", "Third"], "\(r.out)")
        #expect(lines.contains { $0.contains("S1 E2") && $0.contains("Second (with Bob)") }, "\(r.out)")
        r = try CLITests.run(["podcast", "episodes", "Seasons Show"], dataHome: home)
        #expect(r.out.split(separator: "\n").dropFirst().first?.contains("Third") == true, "newest first by default: \(r.out)")

        r = try CLITests.run(["podcast", "list"], dataHome: home)
        #expect(r.out.contains("Support Seasons Show: Patreon https://patreon.example/seasons"), "\(r.out)")
        let podcasts = try LibraryCommandTests.json(try CLITests.run(["podcast", "list", "--json"], dataHome: home).out)
        let funding = podcasts.first?["funding"] as? [[String: Any]]
        #expect(funding?.first?["url"] as? String == "https://patreon.example/seasons" && funding?.first?["title"] as? String == "Patreon")
        #expect((podcasts.first?["persons"] as? [[String: Any]])?.first?["name"] as? String == "Alice")
        let episodes = try LibraryCommandTests.json(try CLITests.run(["podcast", "episodes", "Seasons Show", "--json"], dataHome: home).out)
        #expect(episodes.first?["season"] as? Int == 2 && episodes.first?["episodeNumber"] as? Double == 1)
    }

    /// A soundbite plays from its start for its length and leaves the listener's place alone.
    @Test func aSoundbitePlaysItsClipAndKeepsThePlace() throws {
        let home = LibraryCommandTests.dataHome()
        let audio = DownloadCommandTests.wav(seconds: 8)
        let server = try TestHTTPServer { request in
            guard request.path == "/feed" else { return .file(audio, for: request, contentType: "audio/wav") }
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Bites</title>
                <item><guid>s</guid><title>Long talk</title><enclosure url="/s.wav" type="audio/wav"/>
                  <podcast:soundbite startTime="4.0" duration="2.0">The punchline</podcast:soundbite></item>
                </channel></rss>
                """
            return .complete(contentType: "application/rss+xml", body: Data(xml.utf8))
        }
        defer { server.stop() }
        var r = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let id = try #require(try LibraryCommandTests.json(try CLITests.run(["podcast", "episodes", "Bites", "--json"], dataHome: home).out).first?["id"] as? Int)
        r = try CLITests.run(["podcast", "soundbites", "\(id)"], dataHome: home)
        let row = r.out.split(separator: "\n").first { $0.hasPrefix("1 ") }.map(String.init) ?? ""
        #expect(row.contains("0:04") && row.contains("0:02") && row.contains("The punchline"), "\(r.out)")

        let played = try PlaybackCommandTests.run(
            // Real time: the clip's length is listening time, which a render outruns.
            ["play", "--episode", "\(id)", "--soundbite", "1", "--output", "null", "--events", "jsonl"],
            environment: ["XDG_DATA_HOME": home.path])
        #expect(played.status == 0, "stderr: \(played.err)")
        let positions = played.events.filter { $0["event"] as? String == "position" }.compactMap { $0["position"] as? Double }
        #expect((positions.first ?? 0) >= 3.9 && (positions.first ?? 99) < 4.5, "\(positions.prefix(3))")
        // Two seconds and the one-second fade, not the remaining four.
        #expect((positions.last ?? 99) <= 7.2, "\(positions.suffix(3))")
        #expect(PlaybackCommandTests.stateNames(played.events).contains("fadingOut"))
        let after = try LibraryCommandTests.json(try CLITests.run(["podcast", "episodes", "Bites", "--json"], dataHome: home).out)
        #expect(after.first?["position"] as? Double == 0 && after.first?["played"] as? Bool == false, "\(after)")

        r = try CLITests.run(["play", "--episode", "\(id)", "--soundbite", "2", "--output", "null"], dataHome: home)
        #expect(r.status != 0 && r.err.contains("Not in"), "\(r.err)")
    }

    /// Chapters written into the feed (Podlove Simple Chapters) are the episode's chapters while it
    /// plays: told in the events, with their titles, as the feed's.
    @Test func podloveChaptersAreTheEpisodesChapters() throws {
        let home = LibraryCommandTests.dataHome()
        let audio = DownloadCommandTests.wav(seconds: 2)
        let server = try TestHTTPServer { request in
            guard request.path == "/feed" else { return .file(audio, for: request, contentType: "audio/wav") }
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:psc="http://podlove.org/simple-chapters"><channel><title>Chaptered</title>
                <item><guid>p</guid><title>With chapters</title><enclosure url="/p.wav" type="audio/wav"/>
                  <psc:chapters version="1.2"><psc:chapter start="00:00:00" title="Hello"/><psc:chapter start="00:00:01.000" title="Goodbye"/></psc:chapters>
                </item></channel></rss>
                """
            return .complete(contentType: "application/rss+xml", body: Data(xml.utf8))
        }
        defer { server.stop() }
        let r = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let id = try #require(try LibraryCommandTests.json(try CLITests.run(["podcast", "episodes", "Chaptered", "--json"], dataHome: home).out).first?["id"] as? Int)
        let played = try PlaybackCommandTests.run(
            ["play", "--episode", "\(id)", "--output", "null", "--events", "jsonl"], environment: ["XDG_DATA_HOME": home.path])
        #expect(played.status == 0, "stderr: \(played.err)")
        let told = played.events.last { $0["event"] as? String == "chapters" && !(($0["chapters"] as? [[String: Any]]) ?? []).isEmpty }
        #expect(told?["origin"] as? String == "feed", "\(String(describing: told))")
        let titles = (told?["chapters"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
        #expect(titles == ["Hello", "Goodbye"], "\(String(describing: titles))")
    }
}
