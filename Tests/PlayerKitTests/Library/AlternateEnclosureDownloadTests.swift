import Clocks
import Digests
import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Streaming
import Synchronization
import TestProcesses
import Testing

/// `podcast:alternateEnclosure` end to end with feeds and files served on loopback: a source that
/// fails falls over to the next, a file whose digest is not the feed's is a typed error and is
/// never kept, and a listener who prefers a low bitrate gets it first.
@Suite("Alternate enclosures: failover, integrity, bitrate", .serialized, .blocking)
struct AlternateEnclosureDownloadTests {
    static let good = EpisodeDownloadsTests.bytes(1)
    static let tampered = EpisodeDownloadsTests.bytes(2)

    static func sri(_ data: Data) -> String { "sha384-" + Data(SHA2.sha384.hash(data)).base64EncodedString() }

    /// A feed of one episode: its enclosure at `/main.wav`, a default alternate at `/mirror-a.wav`
    /// and `/mirror-b.wav` with `integrity`, and a 32 kbit/s alternate at `/low.wav`. `files`
    /// answers each path (nil: 404).
    static func server(integrity: String, files: @escaping @Sendable (String) -> Data?) throws -> TestHTTPServer {
        let base = Mutex<String>("")
        let server = try TestHTTPServer { request in
            let root = base.withLock { $0 }
            if request.path == "/feed.xml" {
                let xml = """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Mirrored</title>
                    <item><guid>one</guid><title>One</title><enclosure url="\(root)/main.wav" length="120000" type="audio/wav"/>
                      <podcast:alternateEnclosure type="audio/wav" length="120000" bitrate="1536000" default="true" title="Full">
                        <podcast:source uri="\(root)/mirror-a.wav"/><podcast:source uri="ipfs://QmNotFetchedHere"/>
                        <podcast:source uri="\(root)/mirror-b.wav"/>
                        <podcast:integrity type="sri" value="\(integrity)"/>
                      </podcast:alternateEnclosure>
                      <podcast:alternateEnclosure type="audio/wav" bitrate="32000" title="Low"><podcast:source uri="\(root)/low.wav"/></podcast:alternateEnclosure>
                      <podcast:alternateEnclosure type="video/mp4" bitrate="900000"><podcast:source uri="\(root)/video.mp4"/></podcast:alternateEnclosure>
                    </item></channel></rss>
                    """
                return .complete(contentType: "application/rss+xml", body: Data(xml.utf8))
            }
            guard let data = files(request.path) else { return .init(status: 404, headers: [("Content-Length", "0")]) }
            return .file(data, for: request, contentType: "audio/wav")
        }
        base.withLock { $0 = server.baseURL }
        return server
    }

    func fetched(_ server: TestHTTPServer) -> [String] {
        server.requests.map(\.path).filter { $0 != "/feed.xml" }
    }

    @Test func theFeedsAlternatesAreKeptWithTheirSourcesAndDigest() async throws {
        let server = try Self.server(integrity: "sha256-" + Data(SHA2.sha256.hash(Self.good)).base64EncodedString() + " " + Self.sri(Self.good)) { _ in nil }
        defer { server.stop() }
        let setup = try await EpisodeDownloadsTests.Setup(server: server, episodes: 1)
        let alternates = try setup.store.episode(id: setup.episodes[0].id).alternates
        #expect(alternates.map(\.title) == ["Full", "Low"])
        #expect(alternates[0].sources.map(\.path) == ["/mirror-a.wav", "/mirror-b.wav"])
        #expect(alternates[0].isDefault && alternates[0].bitrate == 1_536_000)
        // Of sha256 and sha384, the strongest is the one checked.
        #expect(alternates[0].integrity?.algorithm == .sha384)
        #expect(alternates[1].integrity == nil)
    }

    @Test func aFailingSourceFallsOverToTheNextAndATamperedFileIsNeverKept() async throws {
        let server = try Self.server(integrity: Self.sri(Self.good)) { path in
            switch path {
            case "/mirror-a.wav": Self.tampered
            case "/mirror-b.wav": Self.good
            default: nil
            }
        }
        defer { server.stop() }
        let setup = try await EpisodeDownloadsTests.Setup(server: server, episodes: 1, policy: .once)
        let outcomes = await setup.downloads.download([setup.episodes[0].id])
        let record = try #require(try outcomes.first?.result.get())
        #expect(fetched(server) == ["/main.wav", "/mirror-a.wav", "/mirror-b.wav"])
        #expect(setup.files() == [record.fileName])
        #expect(try Data(contentsOf: setup.downloads.directory.appendingPathComponent(record.fileName)) == Self.good)
    }

    @Test func whenEverySourceFailsTheLastErrorIsTypedAndNothingIsLeft() async throws {
        let server = try Self.server(integrity: Self.sri(Self.good)) { path in
            path.hasPrefix("/mirror") || path == "/main.wav" ? Self.tampered : nil
        }
        defer { server.stop() }
        let setup = try await EpisodeDownloadsTests.Setup(server: server, episodes: 1, policy: .once)
        let outcomes = await setup.downloads.download([setup.episodes[0].id])
        let result = try #require(outcomes.first?.result)
        guard case .failure(let error) = result else {
            Issue.record("a file whose digest is not the feed's was kept")
            return
        }
        // The low-bitrate alternate has no digest and answers 404: the last of the tries.
        #expect(fetched(server) == ["/main.wav", "/mirror-a.wav", "/mirror-b.wav", "/low.wav"])
        #expect(error.code == .httpNotFound)
        #expect(setup.files().isEmpty, "\(setup.files())")
        #expect(try setup.store.episode(id: setup.episodes[0].id).downloaded == false)
    }

    @Test func aListenerWhoPrefersALowBitrateGetsItFirst() async throws {
        let server = try Self.server(integrity: Self.sri(Self.good)) { path in path == "/low.wav" ? Self.tampered : Self.good }
        defer { server.stop() }
        let setup = try await EpisodeDownloadsTests.Setup(server: server, episodes: 1, policy: .once)
        try setup.downloads.setPrefersLowBitrate(true)
        let outcomes = await setup.downloads.download([setup.episodes[0].id])
        let record = try #require(try outcomes.first?.result.get())
        #expect(fetched(server) == ["/low.wav"])
        #expect(try Data(contentsOf: setup.downloads.directory.appendingPathComponent(record.fileName)) == Self.tampered)
    }

    @Test func aStreamedEpisodeTakesTheSourcesInTheListenersOrder() async throws {
        let server = try Self.server(integrity: Self.sri(Self.good)) { _ in Self.good }
        defer { server.stop() }
        let setup = try await EpisodeDownloadsTests.Setup(server: server, episodes: 1)
        let library = try await LibraryContext.open(directory: setup.directory, logger: .silent)
        func urls() throws -> [String] {
            guard case .play(let request) = try library.episodeToPlay(id: setup.episodes[0].id), let track = request.items.first?.track else { return [] }
            return ([track.url] + track.alternates).map(\.path)
        }
        // The rest follow in order, for the player to fall over to.
        #expect(try urls() == ["/main.wav", "/mirror-a.wav", "/mirror-b.wav", "/low.wav"])
        try library.downloads.setPrefersLowBitrate(true)
        #expect(try urls() == ["/low.wav", "/mirror-a.wav", "/mirror-b.wav", "/main.wav"])
    }
}
