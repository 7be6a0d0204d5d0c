import Clocks
import Foundation
import PlayerCore
import Services
import Streaming
import TestProcesses
import Testing

/// The station directory against a local server answering with hand-written radio-browser JSON.
@Suite("Station directory")
struct StationDirectoryTests {
    /// A wall clock the tests move by hand (the cache's hour).
    final class Wall: @unchecked Sendable {
        private let lock = NSLock()
        private var date = Date(timeIntervalSince1970: 1_800_000_000)
        var now: Date { lock.withLock { date } }
        func advance(_ seconds: Double) { lock.withLock { date += seconds } }
    }

    let network = NetworkClient(clock: ImmediateClock(), seed: 11, breakers: nil)

    func directory(_ servers: [URL], wall: Wall = Wall(), cache: URL? = nil, serversURL: URL? = nil, fallback: URL? = nil) -> StationDirectory {
        var configuration = StationDirectory.Configuration(servers: servers, cacheDirectory: cache)
        if let serversURL { configuration.serversURL = serversURL }
        if let fallback { configuration.fallbackServer = fallback }
        return StationDirectory(configuration: configuration, network: network, now: { wall.now }, seed: 5)
    }

    @Test func aSearchAsksWithTheCriteriaAndReturnsCleanStations() async throws {
        let server = try DirectoryServer(streamBase: "http://radio.example:8000")
        defer { server.stop() }
        let found = try await directory([server.baseURL]).search(StationQuery(name: "jazz", tag: "blues", country: "de", language: "French", order: .clicks, limit: 20))

        let request = try #require(server.searches.first)
        let query = URLComponents(string: request.uri)?.queryItems ?? []
        let asked = Dictionary(query.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(asked == ["name": "jazz", "tag": "blues", "countrycode": "DE", "language": "french", "order": "clickcount",
                          "reverse": "true", "hidebroken": "true", "limit": "20"])
        #expect(request.header("User-Agent") == SharedHTTPClient.userAgent)

        // No stream address, a path in the id, a field of the wrong type, a duplicate: left out.
        #expect(found.map(\.name) == ["Jazz Radio Blues", "Evil[2J Jazz FM", "HLS Jazz"])
        let blues = found[0]
        #expect(blues.id == "96062a7b-0601-11e8-ae97-52543be04c81")
        #expect(blues.streamURL.absoluteString == "http://radio.example:8000/blues")
        #expect(blues.tags == ["jazz", "blues", "smooth jazz"])
        #expect(blues.countryCode == "FR" && blues.country == "France")
        #expect(blues.languages == ["french", "english"])
        #expect(blues.codec == "MP3" && blues.bitrate == 128 && blues.votes == 4120 && blues.clicks == 812)
        #expect(blues.homepage?.absoluteString == "https://www.jazzradio.example/")
        #expect(blues.summary == "MP3 128k · FR · jazz, blues, smooth jazz")

        // Terminal escapes and bidi overrides removed; a javascript: address replaced by the other
        // one given; file: and data: addresses dropped; an unknown bitrate is unknown, not 0.
        let evil = found[1]
        #expect(!evil.name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
        #expect(evil.streamURL.absoluteString == "http://radio.example:8000/evil")
        #expect(evil.homepage == nil && evil.favicon == nil)
        #expect(evil.countryCode == "DE" && evil.bitrate == nil)
        #expect(found[2].isHLS)
    }

    @Test func answersAreCachedForAnHourInMemoryAndOnDisk() async throws {
        let server = try DirectoryServer()
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-directory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let wall = Wall()
        let first = directory([server.baseURL], wall: wall, cache: cache)
        let query = StationQuery(name: "jazz")
        let fresh = try await first.search(query)
        wall.advance(3_000)
        #expect(try await first.search(query) == fresh)
        #expect(server.searches.count == 1)
        // Another run (a new directory) reads the disk.
        #expect(try await directory([server.baseURL], wall: wall, cache: cache).search(query) == fresh)
        #expect(server.searches.count == 1)
        // Another query is another request.
        _ = try await first.search(StationQuery(name: "jazz", order: .clicks))
        #expect(server.searches.count == 2)
        // Past the hour, the directory is asked again.
        wall.advance(700)
        _ = try await first.search(query)
        #expect(server.searches.count == 3)
    }

    @Test func aPlusInTheSearchReachesTheDirectoryAsAPlus() async throws {
        let server = try DirectoryServer()
        defer { server.stop() }
        _ = try await directory([server.baseURL]).search(StationQuery(name: "c++", tag: "drum+bass"))
        let request = try #require(server.searches.first)
        #expect(request.uri.contains("name=c%2B%2B") && request.uri.contains("tag=drum%2Bbass"), "\(request.uri)")
    }

    @Test func aKeptAnswerIsCheckedAgainWhenRead_andExpiredOnesAreRemoved() async throws {
        let server = try DirectoryServer()
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-directory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let wall = Wall()
        let query = StationQuery(name: "jazz")
        let fresh = try await directory([server.baseURL], wall: wall, cache: cache).search(query)
        let files = try FileManager.default.contentsOfDirectory(at: cache, includingPropertiesForKeys: nil)
        #expect(files.count == 1)
        let file = try #require(files.first)
        // Someone edits the kept answer: a file: address and a bidi override in a name.
        var text = try String(contentsOf: file, encoding: .utf8)
        let first = try #require(fresh.first)
        text = text.replacingOccurrences(of: first.streamURL.absoluteString.replacingOccurrences(of: "/", with: "\\/"), with: "file:\\/\\/\\/etc\\/passwd")
        let second = try #require(fresh.dropFirst().first)
        text = text.replacingOccurrences(of: "\"\(second.name)\"", with: "\"Evil\\u202Eeman\"")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let read = try await directory([server.baseURL], wall: wall, cache: cache).search(query)
        #expect(server.searches.count == 1, "read from the disk")
        #expect(!read.contains { $0.id == first.id }, "a station whose address is not http(s) is dropped")
        #expect(read.count == fresh.count - 1)
        #expect(read.first { $0.id == second.id }?.name == "Evileman", "the bidi override is removed again")
        // Past the hour, keeping another answer removes the old one.
        wall.advance(3_700)
        _ = try await directory([server.baseURL], wall: wall, cache: cache).search(StationQuery(tag: "rock"))
        let left = try FileManager.default.contentsOfDirectory(at: cache, includingPropertiesForKeys: nil)
        #expect(left.count == 1 && left.first?.lastPathComponent != file.lastPathComponent)
    }

    @Test func aServerThatFailsIsLeftForTheNextAndTheOneThatAnsweredIsAskedFirst() async throws {
        let down = try DirectoryServer(failing: true)
        let up = try DirectoryServer()
        defer { down.stop(); up.stop() }
        let directory = directory([down.baseURL, up.baseURL])
        #expect(try await directory.search(StationQuery(name: "jazz")).count == 3)
        #expect(down.searches.count == 1 && up.searches.count == 1)
        _ = try await directory.search(StationQuery(tag: "blues"))
        #expect(down.searches.count == 1 && up.searches.count == 2)
    }

    @Test func noServerAnsweringIsATypedRetryableError() async throws {
        let down = try DirectoryServer(failing: true)
        defer { down.stop() }
        let error = await #expect(throws: PlaybackError.self) { try await directory([down.baseURL]).search(StationQuery(name: "jazz")) }
        #expect(error?.code == .httpRetryable)
        #expect(error?.isRetryable == true)

        let page = try TestHTTPServer { _ in .complete(contentType: "text/html", body: Data("<html>maintenance</html>".utf8)) }
        defer { page.stop() }
        let malformed = await #expect(throws: PlaybackError.self) {
            try await directory([URL(string: page.baseURL)!]).search(StationQuery(name: "jazz"))
        }
        #expect(malformed?.code == .malformedData)
    }

    @Test func withoutAServerListTheRoundRobinNameIsAsked() async throws {
        let list = try DirectoryServer(failing: true)
        let fallback = try DirectoryServer()
        defer { list.stop(); fallback.stop() }
        let directory = directory([], serversURL: list.http.url("/json/servers"), fallback: fallback.baseURL)
        #expect(try await directory.search(StationQuery(name: "jazz")).count == 3)
        #expect(list.http.requests.map(\.path).allSatisfy { $0 == "/json/servers" })
        #expect(fallback.searches.count == 1)
    }

    @Test func thePublishedListGivesHTTPSServersWithCleanNames() throws {
        let data = try DirectoryServer.fixture("servers.json", streamBase: "")
        let servers = try StationDirectory.servers(fromList: data)
        #expect(Set(servers.map(\.absoluteString)) == [
            "https://de1.api.radio-browser.info", "https://nl1.api.radio-browser.info", "https://at1.api.radio-browser.info",
        ])
    }

    @Test func aPlayedStationIsCountedAsAClick() async throws {
        let server = try DirectoryServer()
        defer { server.stop() }
        let directory = directory([server.baseURL])
        let station = try #require(try await directory.search(StationQuery(name: "jazz")).first)
        await directory.countClick(id: station.id)
        await directory.countClick(id: "../../json/stations")
        #expect(server.clicks == [station.id])
    }
}
