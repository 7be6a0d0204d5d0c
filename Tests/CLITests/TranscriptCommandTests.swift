import Foundation
import PlayerCore
import TestProcesses
import Testing

/// `tonearm podcast transcript` against a feed served on loopback: WebVTT with speakers and SRT
/// in Russian, printed with times and as JSON, kept for the next time without the network; an
/// episode without one and a transcript served as a web page are typed errors.
@Suite("tonearm podcast transcript", .serialized, .blocking)
struct TranscriptCommandTests {
    static let vtt = """
        WEBVTT

        00:00.000 --> 00:03.000
        <v Alice>Welcome to the show.

        01:02:03.500 --> 01:02:05.000
        <v Bob>The phrase only said here.
        """
    static let srt = "1\r\n00:00:01,000 --> 00:00:02,500\r\nДобрый вечер, слушатели.\r\n"

    @Test func transcriptsArePrintedWithTimesAndKept() throws {
        let home = LibraryCommandTests.dataHome()
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/feed":
                let xml = """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Talk Show</title>
                    <item><guid>a</guid><title>English</title><enclosure url="/a.mp3" type="audio/mpeg"/>
                      <podcast:transcript url="/a.json" type="application/json"/><podcast:transcript url="/a.vtt" type="text/vtt"/></item>
                    <item><guid>b</guid><title>Russian</title><enclosure url="/b.mp3" type="audio/mpeg"/>
                      <podcast:transcript url="/b.srt" type="application/x-subrip" language="ru"/></item>
                    <item><guid>c</guid><title>None</title><enclosure url="/c.mp3" type="audio/mpeg"/></item>
                    <item><guid>d</guid><title>Login page</title><enclosure url="/d.mp3" type="audio/mpeg"/>
                      <podcast:transcript url="/d.vtt" type="text/vtt"/></item>
                    </channel></rss>
                    """
                return .complete(contentType: "application/rss+xml", body: Data(xml.utf8))
            case "/a.vtt": return .complete(contentType: "text/vtt", body: Data(Self.vtt.utf8))
            case "/b.srt": return .complete(contentType: "application/x-subrip", body: Data(Self.srt.utf8))
            case "/d.vtt": return .complete(contentType: "text/html", body: Data("<html><body>Please sign in</body></html>".utf8))
            default: return .complete(status: 404, contentType: "text/plain", body: Data("no".utf8))
            }
        }
        var r = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let episodes = try LibraryCommandTests.json(try CLITests.run(["podcast", "episodes", "Talk Show", "--json"], dataHome: home).out)
        func id(_ title: String) throws -> String { String(try #require(episodes.first { $0["title"] as? String == title }?["id"] as? Int)) }

        r = try CLITests.run(["podcast", "transcript", try id("English")], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(r.out == "[0:00] Alice: Welcome to the show.\n[1:02:03] Bob: The phrase only said here.\n", "\(r.out)")
        r = try CLITests.run(["podcast", "transcript", try id("Russian"), "--json"], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let cues = try #require(json["cues"] as? [[String: Any]])
        #expect(json["timed"] as? Bool == true)
        #expect(cues.first?["text"] as? String == "Добрый вечер, слушатели.")
        #expect(cues.first?["start"] as? Double == 1 && cues.first?["end"] as? Double == 2.5)

        r = try CLITests.run(["podcast", "transcript", try id("None")], dataHome: home)
        #expect(r.status == 1)
        #expect(r.err.contains(PlaybackError(.noTranscript).message(in: .english)), "\(r.err)")
        r = try CLITests.run(["podcast", "transcript", try id("Login page")], dataHome: home)
        #expect(r.status == 1)
        #expect(r.err.contains("instead of the transcript"), "\(r.err)")

        // Kept: the next time needs no server.
        server.stop()
        r = try CLITests.run(["podcast", "transcript", try id("English")], dataHome: home)
        #expect(r.status == 0 && r.out.contains("[1:02:03] Bob: The phrase only said here."), "\(r.out) \(r.err)")
    }
}
