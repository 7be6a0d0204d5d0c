import Clocks
import Foundation
import PlayerCore
import Streaming
import Testing
import TestProcesses
@testable import Services

/// MetadataService against a real HTTP server (TestHTTPServer), with an immediate clock so retries
/// never sleep and a fixed wall clock so the cache-busting value is known.
@Suite(.blocking) struct MetadataServiceTests {
    static let fixedNow = Date(timeIntervalSince1970: 1_700_000_000)
    static let largeCover = URL(string: "https://cdn.example/covers/large.jpg")

    func makeService(
        _ server: TestHTTPServer, source: (TestHTTPServer) -> MetadataService.StatusSource?, identity: [String] = [], name: String? = nil,
        analytics: ErrorAnalytics? = nil
    ) -> MetadataService {
        // What these tests check is how answers are matched, not time limits or breakers: a time
        // limit on a clock nobody moves never fires (a real 8 s one can, on a busy machine, while
        // the test's loopback server waits for a thread), and without breakers another test's
        // failures on a reused port cannot refuse these requests.
        let network = NetworkClient(
            clock: ImmediateClock(), timeoutClock: TestClock<Duration>(), seed: 42, now: { Self.fixedNow }, breakers: nil)
        return MetadataService(
            network: network,
            configuration: .init(identityStrings: identity, statusSource: source(server), stationName: name), analytics: analytics)
    }

    func radioCo(_ server: TestHTTPServer) -> MetadataService.StatusSource { .radioCo(server.url("/api/v2/status")) }

    let jazzStation = IcyStationInfo(name: "Jazz FM", genre: "Jazz", bitrate: 128, url: nil)

    /// What a station's ICY block without a title shows: the status source's track, if any.
    static func blockWithoutATitle(_ service: MetadataService) async -> TrackUpdate {
        await service.receive(IcyMetadata(title: nil, url: nil), station: nil)
    }

    @Test func withoutAStatusSourceTheICYTitleIsSplit() async {
        let service = MetadataService(configuration: .init(stationName: "Configured"))
        let update = await service.receive(IcyMetadata(title: "Miles Davis - So What", url: nil), station: nil)
        #expect(update == TrackUpdate(title: "So What", artist: "Miles Davis", station: "Configured"))
        #expect(await Self.blockWithoutATitle(service).title == nil)
    }

    @Test func theStatusRequestIsCacheBusted() async throws {
        let server = try TestHTTPServer { _ in .json(radioStatusJSON(title: "Miles Davis - So What")) }
        // Not `stop()`: deinit stops the server too, and a second stop waits forever on its shut-down loop.
        defer { withExtendedLifetime(server) {} }
        let service = makeService(server, source: radioCo)
        _ = await service.receive(IcyMetadata(title: "Miles Davis - So What", url: nil), station: jazzStation)
        let request = try #require(server.requests.first)
        #expect(request.path == "/api/v2/status")
        #expect(request.uri.contains("nocache=1700000000000"))
        #expect(request.header("Accept") == "application/json")
    }

    @Test func aMatchingTitleYieldsTheArtworkURL() async throws {
        let server = try TestHTTPServer { _ in .json(radioStatusJSON(title: "miles davis – so what")) }
        // Not `stop()`: deinit stops the server too, and a second stop waits forever on its shut-down loop.
        defer { withExtendedLifetime(server) {} }
        let service = makeService(server, source: radioCo)
        let update = await service.receive(IcyMetadata(title: "Miles Davis - So What", url: nil), station: jazzStation)
        #expect(update == TrackUpdate(title: "So What", artist: "Miles Davis", station: "Jazz FM", artworkURL: Self.largeCover))
        #expect(update.nowPlaying.artwork == .real)
        #expect(await service.lastError == nil)

        // The same block again is answered from the matched result without another request.
        let again = await service.receive(IcyMetadata(title: "Miles Davis - So What", url: nil), station: jazzStation)
        #expect(again == update)
        #expect(server.requests.count == 1)
    }

    @Test func aMismatchKeepsTheICYTitleWithoutArtwork() async throws {
        let server = try TestHTTPServer { _ in .json(radioStatusJSON(title: "John Coltrane - Naima")) }
        // Not `stop()`: deinit stops the server too, and a second stop waits forever on its shut-down loop.
        defer { withExtendedLifetime(server) {} }
        let service = makeService(server, source: radioCo)
        let update = await service.receive(IcyMetadata(title: "Miles Davis - So What", url: nil), station: jazzStation)
        #expect(update == TrackUpdate(title: "So What", artist: "Miles Davis", station: "Jazz FM", artworkURL: nil))
        #expect(update.nowPlaying.artwork == .default)

        // Not cached: the API may catch up, so the next block asks again.
        _ = await service.receive(IcyMetadata(title: "Miles Davis - So What", url: nil), station: jazzStation)
        #expect(server.requests.count == 2)
    }

    @Test func a503ThenA200IsRetried() async throws {
        let calls = CallCounter()
        let server = try TestHTTPServer { _ in
            calls.next() == 1
                ? .complete(status: 503, contentType: "text/plain", body: Data("busy".utf8), headers: [("Retry-After", "5")])
                : .json(radioStatusJSON(title: "Miles Davis - So What"))
        }
        // Not `stop()`: deinit stops the server too, and a second stop waits forever on its shut-down loop.
        defer { withExtendedLifetime(server) {} }
        let service = makeService(server, source: radioCo)
        let update = await service.receive(IcyMetadata(title: "Miles Davis - So What", url: nil), station: jazzStation)
        #expect(server.requests.count == 2)
        #expect(update.artworkURL == Self.largeCover)
        #expect(await service.lastError == nil)
    }

    @Test func aFailedFetchNeverBlocksTheICYTitle() async throws {
        let server = try TestHTTPServer { _ in .complete(status: 404, contentType: "text/plain", body: Data("no".utf8)) }
        // Not `stop()`: deinit stops the server too, and a second stop waits forever on its shut-down loop.
        defer { withExtendedLifetime(server) {} }
        let analytics = ErrorAnalytics()
        let service = makeService(server, source: radioCo, name: "Configured", analytics: analytics)
        let update = await service.receive(IcyMetadata(title: "Miles Davis - So What", url: nil), station: nil)
        #expect(update == TrackUpdate(title: "So What", artist: "Miles Davis", station: "Configured"))
        #expect(await service.lastError?.code == .httpNotFound)
        // Not shown, but recorded for the error summary.
        #expect(try await analytics.events().map(\.operation) == ["metadata.radioStatus"])
        #expect(server.requests.count == 1)  // a 404 is final: not retried
        #expect(await Self.blockWithoutATitle(service).title == nil)
    }

    @Test func persistent503sGiveUpAfterTheNetworkPreset() async throws {
        let server = try TestHTTPServer { _ in .complete(status: 503, contentType: "text/plain", body: Data()) }
        // Not `stop()`: deinit stops the server too, and a second stop waits forever on its shut-down loop.
        defer { withExtendedLifetime(server) {} }
        let service = makeService(server, source: radioCo)
        let update = await service.receive(IcyMetadata(title: "Song", url: nil), station: nil)
        #expect(update == TrackUpdate(title: "Song"))
        #expect(server.requests.count == BackoffPolicy.network.maxAttempts)
        #expect(await service.lastError?.code == .httpRetryable)
    }

    @Test func invalidStatusJSONIsMalformedData() async throws {
        let server = try TestHTTPServer { _ in .json("<html>oops</html>") }
        // Not `stop()`: deinit stops the server too, and a second stop waits forever on its shut-down loop.
        defer { withExtendedLifetime(server) {} }
        let service = makeService(server, source: radioCo)
        #expect(await Self.blockWithoutATitle(service).title == nil)
        #expect(await service.lastError?.code == .malformedData)
        #expect(server.requests.count == 1)
        await #expect(throws: PlaybackError(.malformedData)) { try await service.fetchStatus() }
    }

    @Test func anOversizedStatusDocumentIsRefused() async throws {
        let huge = Data(repeating: UInt8(ascii: " "), count: ServiceLimits.maxStatusBytes + 1)
        let server = try TestHTTPServer { _ in .json(huge) }
        // Not `stop()`: deinit stops the server too, and a second stop waits forever on its shut-down loop.
        defer { withExtendedLifetime(server) {} }
        let service = makeService(server, source: radioCo)
        #expect(await Self.blockWithoutATitle(service).title == nil)
        #expect(await service.lastError?.code == .documentTooLarge)
    }

    @Test func theStationsIdentityMeansTheLogoWithoutARequest() async throws {
        let server = try TestHTTPServer { _ in .json(radioStatusJSON(title: "OtonFM")) }
        // Not `stop()`: deinit stops the server too, and a second stop waits forever on its shut-down loop.
        defer { withExtendedLifetime(server) {} }
        let service = makeService(server, source: radioCo, identity: ["OtonFM"])
        let update = await service.receive(IcyMetadata(title: "OTON FM", url: nil), station: nil)
        #expect(update.isStationIdentity)
        #expect(update.title == "OTON FM")
        #expect(update.artworkURL == nil)
        #expect(update.nowPlaying.artwork == .station)
        #expect(server.requests.isEmpty)

        let byName = await service.receive(IcyMetadata(title: "jazz fm", url: nil), station: jazzStation)
        #expect(byName.isStationIdentity)
    }

    @Test func maliciousStatusTextIsSanitised() async throws {
        let evil = "\u{1B}[2J\u{1B}]0;pwned\u{07}Evil\u{202E}Artist - " + String(repeating: "A", count: 4000) + "\u{9B}"
        let server = try TestHTTPServer { _ in .json(radioStatusJSON(title: evil, artwork: "https://cdn.example/x.jpg\u{1B}")) }
        // Not `stop()`: deinit stops the server too, and a second stop waits forever on its shut-down loop.
        defer { withExtendedLifetime(server) {} }
        let service = makeService(server, source: radioCo)
        let update = await Self.blockWithoutATitle(service)
        for text in [update.title, update.artist].compactMap({ $0 }) {
            #expect(!text.unicodeScalars.contains { TextSanitizer.isForbidden($0) })
            #expect(text.count <= StreamingLimits.maxMetadataValueLength)
        }
        #expect(update.artist == "[2J]0;pwnedEvilArtist")
        #expect(update.title?.hasPrefix("AAAA") == true)
        #expect(update.artworkURL == URL(string: "https://cdn.example/x.jpg"))
    }

    @Test func aBlockWithoutATitleReadsTheRadioCoTrack() async throws {
        let server = try TestHTTPServer { _ in .json(radioStatusJSON(title: "Miles Davis - So What")) }
        // Not `stop()`: deinit stops the server too, and a second stop waits forever on its shut-down loop.
        defer { withExtendedLifetime(server) {} }
        let service = makeService(server, source: radioCo, name: "Configured")
        let update = await Self.blockWithoutATitle(service)
        #expect(update == TrackUpdate(title: "So What", artist: "Miles Davis", station: "Configured", artworkURL: Self.largeCover))
    }

    @Test func aBlockWithoutATitleFallsBackToTheStatus() async throws {
        let server = try TestHTTPServer { _ in .json(radioStatusJSON(title: "Miles Davis - So What")) }
        // Not `stop()`: deinit stops the server too, and a second stop waits forever on its shut-down loop.
        defer { withExtendedLifetime(server) {} }
        let service = makeService(server, source: radioCo)
        let update = await service.receive(IcyMetadata(title: nil, url: nil), station: jazzStation)
        #expect(update == TrackUpdate(title: "So What", artist: "Miles Davis", station: "Jazz FM", artworkURL: Self.largeCover))
    }

    @Test func aBlockWithoutATitleReadsTheIcecastMount() async throws {
        let server = try TestHTTPServer { _ in .json(IcecastFixtures.twoSources) }
        // Not `stop()`: deinit stops the server too, and a second stop waits forever on its shut-down loop.
        defer { withExtendedLifetime(server) {} }
        let service = makeService(server, source: { .icecast($0.url("/status-json.xsl"), mount: "/rock.ogg") })
        let update = await Self.blockWithoutATitle(service)
        #expect(update == TrackUpdate(title: "1999", artist: "Prince", station: "Rock Radio"))
        #expect(server.requests.first?.uri.hasPrefix("/status-json.xsl?nocache=") == true)
    }

    @Test func icecastTitlesMatchButNameNoArtwork() async throws {
        let server = try TestHTTPServer { _ in .json(IcecastFixtures.oneSource) }
        // Not `stop()`: deinit stops the server too, and a second stop waits forever on its shut-down loop.
        defer { withExtendedLifetime(server) {} }
        let service = makeService(server, source: { .icecast($0.url("/status-json.xsl"), mount: "/jazz") })
        let update = await service.receive(IcyMetadata(title: "Miles Davis - So What", url: nil), station: nil)
        #expect(update == TrackUpdate(title: "So What", artist: "Miles Davis", station: "Jazz FM", artworkURL: nil))
    }

    @Test func anIcecastStatusWithoutTheMountIsATypedFailure() async throws {
        let server = try TestHTTPServer { _ in .json(IcecastFixtures.noSource) }
        // Not `stop()`: deinit stops the server too, and a second stop waits forever on its shut-down loop.
        defer { withExtendedLifetime(server) {} }
        let service = makeService(server, source: { .icecast($0.url("/status-json.xsl"), mount: "/jazz") })
        #expect(await Self.blockWithoutATitle(service).title == nil)
        #expect(await service.lastError?.code == .streamUnavailable)
        let update = await service.receive(IcyMetadata(title: "Live", url: nil), station: jazzStation)
        #expect(update == TrackUpdate(title: "Live", station: "Jazz FM"))
    }
}
