import Foundation
import Synchronization
import TestProcesses
import Testing

/// A streamed episode with `podcast:alternateEnclosure` sources, played by the binary from a feed
/// served on loopback: an enclosure that cannot be opened falls over to the next source in order,
/// and when none opens the error is the enclosure's own, typed.
@Suite("tonearm play: alternate sources of a streamed episode", .serialized, .blocking)
struct AlternateEnclosurePlaybackTests {
    /// A feed of one episode at `/main.wav`, with a default alternate at `/mirror-a.wav` and
    /// `/mirror-b.wav` and a low-bitrate one at `/low.wav`; `serves` says which paths answer with
    /// audio (the others 404).
    static func server(serves: Set<String>) throws -> TestHTTPServer {
        let audio = DownloadCommandTests.wav(seconds: 1)
        let base = Mutex<String>("")
        let server = try TestHTTPServer { request in
            let root = base.withLock { $0 }
            if request.path == "/feed.xml" {
                let xml = """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Mirrored</title>
                    <item><guid>one</guid><title>One</title><enclosure url="\(root)/main.wav" type="audio/wav"/>
                      <podcast:alternateEnclosure type="audio/wav" bitrate="1536000" default="true">
                        <podcast:source uri="\(root)/mirror-a.wav"/><podcast:source uri="\(root)/mirror-b.wav"/>
                      </podcast:alternateEnclosure>
                      <podcast:alternateEnclosure type="audio/wav" bitrate="32000"><podcast:source uri="\(root)/low.wav"/></podcast:alternateEnclosure>
                    </item></channel></rss>
                    """
                return .complete(contentType: "application/rss+xml", body: Data(xml.utf8))
            }
            guard serves.contains(request.path) else { return .init(status: 404, headers: [("Content-Length", "0")]) }
            return .file(audio, for: request, contentType: "audio/wav")
        }
        base.withLock { $0 = server.baseURL }
        return server
    }

    /// Adds the feed to a new library and returns the library's home and the episode's id.
    static func subscribe(_ server: TestHTTPServer) throws -> (home: URL, id: Int) {
        let home = LibraryCommandTests.dataHome()
        let r = try CLITests.run(["podcast", "add", server.url("/feed.xml").absoluteString], dataHome: home)
        #expect(r.status == 0, "stderr: \(r.err)")
        let episodes = try LibraryCommandTests.json(try CLITests.run(["podcast", "episodes", "Mirrored", "--json"], dataHome: home).out)
        return (home, try #require(episodes.first?["id"] as? Int))
    }

    static func audioRequests(_ server: TestHTTPServer) -> [String] {
        server.requests.map(\.path).filter { $0 != "/feed.xml" }
    }

    @Test func anEnclosureThatCannotBeOpenedFallsOverToTheNextSource() throws {
        let server = try Self.server(serves: ["/mirror-b.wav"])
        defer { server.stop() }
        let (home, id) = try Self.subscribe(server)
        let played = try PlaybackCommandTests.run(
            ["play", "--episode", "\(id)", "--output", "null", "--fast", "--events", "jsonl"], environment: ["XDG_DATA_HOME": home.path])
        #expect(played.status == 0, "stderr: \(played.err)")
        let states = PlaybackCommandTests.stateNames(played.events)
        #expect(states.contains("playing") && states.last == "finished", "\(states)")
        #expect(!states.contains("failed"), "\(states)")
        let asked = Self.audioRequests(server)
        #expect(Array(asked.prefix(3)) == ["/main.wav", "/mirror-a.wav", "/mirror-b.wav"], "\(asked)")
        #expect(!asked.contains("/low.wav"), "the source after the one that played is never asked: \(asked)")
    }

    @Test func whenNoSourceOpensTheEnclosuresErrorIsTheEpisodes() throws {
        let server = try Self.server(serves: [])
        defer { server.stop() }
        let (home, id) = try Self.subscribe(server)
        let played = try PlaybackCommandTests.run(
            ["play", "--episode", "\(id)", "--output", "null", "--fast", "--events", "jsonl"], environment: ["XDG_DATA_HOME": home.path])
        #expect(played.status != 0)
        #expect(played.err.contains("404") || played.err.lowercased().contains("not found"), "\(played.err)")
        let asked = Self.audioRequests(server)
        #expect(Array(asked.prefix(4)) == ["/main.wav", "/mirror-a.wav", "/mirror-b.wav", "/low.wav"], "\(asked)")
    }
}
