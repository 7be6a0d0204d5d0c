import Foundation
import Presentation
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

    /// The cue events of a run, as (text or nil, the position reported right after it).
    static func cues(_ events: [[String: Any]]) -> [(text: String?, position: Double?)] {
        events.enumerated().compactMap { index, event in
            guard event["event"] as? String == "cue" else { return nil }
            let text = (event["cue"] as? [String: Any])?["text"] as? String
            let next = events[(index + 1)...].first { $0["event"] as? String == "position" }?["position"] as? Double
            return (text, next)
        }
    }

    /// A WebVTT file beside a local file is its transcript: each line told as it is spoken, in
    /// `--events jsonl` (with the position it is spoken at) and in the line interface.
    @Test func aLocalFilesSubtitlesFollowTheVoice() throws {
        let (dir, tone) = try PlaybackCommandTests.tone(seconds: 3)
        defer { try? FileManager.default.removeItem(at: dir) }
        let vtt = "WEBVTT\n\n00:00.500 --> 00:01.200\n<v Alice>One\n\n00:01.500 --> 00:02.000\nTwo\n"
        try vtt.write(to: tone.deletingPathExtension().appendingPathExtension("vtt"), atomically: true, encoding: .utf8)

        // Real time: a render could outrun the transcript's arrival, which is asked for as the file opens.
        let r = try PlaybackCommandTests.run(["play", tone.path, "--output", "null", "--events", "jsonl"])
        #expect(r.status == 0, "stderr: \(r.err)")
        let told = r.events.first { $0["event"] as? String == "transcript" }
        #expect(told?["cues"] as? Int == 2 && told?["timed"] as? Bool == true, "\(String(describing: told))")
        let cues = Self.cues(r.events)
        #expect(cues.map(\.text) == ["One", nil, "Two", nil], "\(cues)")
        for (cue, range) in zip(cues, [0.5..<1.2, 1.2..<1.5, 1.5..<2.0, 2.0..<3.1]) {
            let position = try #require(cue.position, "no position after \(String(describing: cue.text))")
            #expect(range.lowerBound - 0.05 <= position && position < range.upperBound + 0.1, "\(String(describing: cue.text)) at \(position)")
        }

        let lines = try CLITests.run(["play", tone.path, "--output", "null"])
        #expect(lines.status == 0, "stderr: \(lines.err)")
        #expect(lines.out.contains("Alice: One\n") && lines.out.contains("\nTwo\n"), "\(lines.out)")
    }

    /// A file that carries its own subtitle track (Matroska with SRT) and has nothing beside it:
    /// the track is its transcript, told cue by cue as it plays.
    @Test func aFilesOwnSubtitleTrackFollowsTheVoice() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let srt = dir.appendingPathComponent("words.srt")
        try "1\n00:00:00,500 --> 00:00:01,200\nOne\n\n2\n00:00:01,500 --> 00:00:02,000\nДва\n".write(to: srt, atomically: true, encoding: .utf8)
        let file = dir.appendingPathComponent("talk.mkv")
        try FFmpegFixture.make(
            ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=3", "-i", srt.path, "-map", "0:a", "-map", "1:s", "-ac", "2",
             "-c:a", "flac", "-c:s", "srt"], fileName: "talk.mkv"
        ).get().write(to: file)

        let r = try PlaybackCommandTests.run(["play", file.path, "--output", "null", "--events", "jsonl"])
        #expect(r.status == 0, "stderr: \(r.err)")
        let told = r.events.first { $0["event"] as? String == "transcript" }
        #expect(told?["cues"] as? Int == 2 && told?["timed"] as? Bool == true, "\(String(describing: told))")
        let cues = Self.cues(r.events)
        #expect(cues.map(\.text) == ["One", nil, "Два", nil], "\(cues)")
        let two = try #require(cues.dropFirst(2).first?.position)
        #expect(1.45 <= two && two < 2.1, "Два at \(two)")
    }

    /// An episode's transcript, fetched by the player from the address its feed names while it
    /// plays, followed in the events and kept: `podcast transcript` then reads it without a server.
    @Test func anEpisodesTranscriptIsFollowedWhileItPlaysAndKept() throws {
        let home = LibraryCommandTests.dataHome()
        let audio = DownloadCommandTests.wav(seconds: 3)
        let vtt = "WEBVTT\n\n00:00.200 --> 00:01.000\n<v Host>Hello there.\n\n00:01.500 --> 00:02.500\n<v Guest>Привет!\n"
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/feed":
                let xml = """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Voices</title>
                    <item><guid>v</guid><title>Voices 1</title><enclosure url="/v.wav" type="audio/wav"/>
                      <podcast:transcript url="/v.vtt" type="text/vtt"/></item></channel></rss>
                    """
                return .complete(contentType: "application/rss+xml", body: Data(xml.utf8))
            case "/v.vtt": return .complete(contentType: "text/vtt", body: Data(vtt.utf8))
            default: return .file(audio, for: request, contentType: "audio/wav")
            }
        }
        var r = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let episodes = try LibraryCommandTests.json(try CLITests.run(["podcast", "episodes", "Voices", "--json"], dataHome: home).out)
        let id = try #require(episodes.first?["id"] as? Int)
        let played = try PlaybackCommandTests.run(
            ["play", "--episode", "\(id)", "--output", "null", "--events", "jsonl", "--allow-private-artwork"],
            environment: ["XDG_DATA_HOME": home.path])
        #expect(played.status == 0, "stderr: \(played.err)")
        #expect(Self.cues(played.events).compactMap(\.text) == ["Hello there.", "Привет!"], "\(Self.cues(played.events))")
        let speakers = played.events.compactMap { ($0["cue"] as? [String: Any])?["speaker"] as? String }
        #expect(speakers == ["Host", "Guest"])

        server.stop()
        r = try CLITests.run(["podcast", "transcript", "\(id)"], dataHome: home)
        #expect(r.status == 0 && r.out == "[0:00] Host: Hello there.\n[0:01] Guest: Привет!\n", "\(r.out) \(r.err)")
    }
}
