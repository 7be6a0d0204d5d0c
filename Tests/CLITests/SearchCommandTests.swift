import Foundation
import PlayerCore
import TestProcesses
import Testing

/// `tonearm search` against a library filled from a feed served on loopback: a phrase said only
/// in a transcript is found in English and in Russian, with its episode and time, and `--play`
/// starts the episode there; titles rank first; what is not there, or not an episode, is said.
@Suite("tonearm search", .serialized, .blocking)
struct SearchCommandTests {
    @Test func aPhraseSaidOnlyInATranscriptIsFoundAndPlaysFromItsTime() throws {
        let home = LibraryCommandTests.dataHome()
        let audio = DownloadCommandTests.wav(seconds: 5)
        let vtt = "WEBVTT\n\n00:00.500 --> 00:01.500\n<v Alice>Welcome.\n\n00:03.000 --> 00:04.000\n<v Bob>Penguins migrate at dawn.\n"
        let srt = "1\n00:00:02,000 --> 00:00:03,000\nПингвины улетают на рассвете.\n"
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/feed":
                let xml = """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Birds Weekly</title>
                    <item><guid>en</guid><title>Antarctica</title><description>Cold places.</description>
                      <enclosure url="/en.wav" type="audio/wav"/><podcast:transcript url="/en.vtt" type="text/vtt"/></item>
                    <item><guid>ru</guid><title>Антарктида</title><enclosure url="/ru.wav" type="audio/wav"/>
                      <podcast:transcript url="/ru.srt" type="application/x-subrip"/></item>
                    <item><guid>pn</guid><title>Penguins everywhere</title><enclosure url="/pn.wav" type="audio/wav"/></item>
                    </channel></rss>
                    """
                return .complete(contentType: "application/rss+xml", body: Data(xml.utf8))
            case "/en.vtt": return .complete(contentType: "text/vtt", body: Data(vtt.utf8))
            case "/ru.srt": return .complete(contentType: "application/x-subrip", body: Data(srt.utf8))
            default: return .file(audio, for: request, contentType: "audio/wav")
            }
        }
        var r = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let episodes = try LibraryCommandTests.json(try CLITests.run(["podcast", "episodes", "Birds Weekly", "--json"], dataHome: home).out)
        func id(_ title: String) throws -> Int { try #require(episodes.first { $0["title"] as? String == title }?["id"] as? Int) }
        for title in ["Antarctica", "Антарктида"] {
            r = try CLITests.run(["podcast", "transcript", "\(try id(title))"], dataHome: home)
            #expect(r.status == 0, "stderr: \(r.err)")
        }

        // Words spread over the line, any case: found; "penguin" also finds the title that has it, first.
        r = try CLITests.run(["search", "MIGRATE", "dawn"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(r.out == "1. 0:03     Bob: Penguins migrate at dawn. (episode \(try id("Antarctica")): Antarctica, Birds Weekly)\n", "\(r.out)")
        r = try CLITests.run(["search", "penguin"], dataHome: home)
        #expect(r.out.hasPrefix("1. episode  Penguins everywhere, Birds Weekly (episode \(try id("Penguins everywhere")))\n2. 0:03 "), "\(r.out)")

        // Russian, by a word's stem, as JSON.
        r = try CLITests.run(["search", "рассвет", "--json"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let hits = try LibraryCommandTests.json(r.out)
        #expect(hits.count == 1)
        #expect(hits.first?["match"] as? String == "transcript" && hits.first?["time"] as? Double == 2)
        #expect(hits.first?["episodeID"] as? Int == (try id("Антарктида")) && hits.first?["podcastTitle"] as? String == "Birds Weekly")

        // Played from the line's time.
        let played = try PlaybackCommandTests.run(
            ["search", "migrate", "dawn", "--play", "1", "--output", "null", "--fast", "--events", "jsonl"], environment: ["XDG_DATA_HOME": home.path])
        #expect(played.status == 0, "stderr: \(played.err)")
        let positions = played.events.filter { $0["event"] as? String == "position" }.compactMap { $0["position"] as? Double }
        #expect((positions.first ?? 0) >= 2.9 && (positions.first ?? 99) < 3.5, "\(positions.prefix(3))")
        #expect(PlaybackCommandTests.stateNames(played.events).last == "finished", "\(played.events.suffix(3))")

        // Nothing found is not a failure; a hit that is a podcast, or not there, cannot be played.
        r = try CLITests.run(["search", "albatross"], dataHome: home)
        #expect(r.status == 0 && r.out.isEmpty && r.err.contains("nothing in the library matches"), "\(r.out) \(r.err)")
        r = try CLITests.run(["search", "birds", "--play", "1"], dataHome: home)
        #expect(r.status != 0 && r.err.contains("that hit is a podcast"), "\(r.err)")
        r = try CLITests.run(["search", "penguin", "--play", "9"], dataHome: home)
        #expect(r.status != 0 && r.err.contains("there are 2 hits"), "\(r.err)")
    }

    /// A downloaded episode's transcript comes with it: its words are found without playing it,
    /// and without the server.
    @Test func aDownloadedEpisodesTranscriptIsSearchable() throws {
        let home = LibraryCommandTests.dataHome()
        let audio = DownloadCommandTests.wav(seconds: 1)
        let vtt = "WEBVTT\n\n00:07.000 --> 00:08.000\nLighthouses blink at night.\n"
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/feed":
                let xml = """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Coasts</title>
                    <item><guid>c</guid><title>Harbours</title><enclosure url="/c.wav" type="audio/wav"/>
                      <podcast:transcript url="/c.vtt" type="text/vtt"/></item></channel></rss>
                    """
                return .complete(contentType: "application/rss+xml", body: Data(xml.utf8))
            case "/c.vtt": return .complete(contentType: "text/vtt", body: Data(vtt.utf8))
            default: return .file(audio, for: request, contentType: "audio/wav")
            }
        }
        var r = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(try CLITests.run(["search", "lighthouses"], dataHome: home).out.isEmpty)
        r = try CLITests.run(["podcast", "download", "Coasts"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        server.stop()
        r = try CLITests.run(["search", "lighthouses", "--json"], dataHome: home)
        let hits = try LibraryCommandTests.json(r.out)
        #expect(hits.count == 1 && hits.first?["time"] as? Double == 7 && hits.first?["episodeTitle"] as? String == "Harbours", "\(r.out) \(r.err)")
    }
}
