import AudioEngine
import Clocks
import Foundation
import Library
import LibraryKit
import Logging
import PlayerCore
import PlayerKit
import Streaming
import TestProcesses
import Testing

/// The privacy promise of the logs, end to end: a URL whose user info and query carry a canary is
/// played through the real player stack (HTTP source, FFmpeg, decks, state machine) from a real
/// HTTP server, with every logger at `trace`. Logging must have happened, and the canary must be
/// in no record at any level, neither in a message nor in metadata.
@Suite("Log canary", .serialized, .blocking)
struct LogCanaryTests {
    static let canary = "CANARY-7f3a"
    /// Carried by the stream's ICY title: a title may appear at `debug` and below, never above.
    static let titleCanary = "TITLECANARY-91c2"

    static func canaryURL(_ server: TestHTTPServer, path: String = "/stream.mp3") -> URL {
        URL(string: "http://canaryuser:\(canary)@127.0.0.1:\(server.port)\(path)?token=\(canary)")!
    }

    /// No record holds the canary or the user name; none above `debug` holds the title.
    static func expectClean(_ records: [LogCapture.Record], sourceLocation: SourceLocation = #_sourceLocation) {
        for record in records {
            let text = record.allText
            #expect(!text.contains(canary), "\(record.level): \(text)", sourceLocation: sourceLocation)
            #expect(!text.contains("canaryuser"), "\(record.level): \(text)", sourceLocation: sourceLocation)
            if record.level > .debug {
                #expect(!text.contains(titleCanary), "\(record.level): \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func aLiveStreamPlaysAndNoRecordHoldsTheCanary() async throws {
        let body = RadioFixtures.icyBody(try RadioFixtures.audio(), metaint: 8192, titles: ["Band - \(Self.titleCanary)"])
        let server = try TestHTTPServer { _ in
            TestHTTPServer.Response(status: 200, headers: RadioFixtures.icyHeaders(metaint: 8192), body: [.bytes(body), .hold])
        }
        defer { server.stop() }
        let capture = LogCapture()
        let radio = try await RadioHarness(logger: capture.logger(level: .trace))
        try await radio.playUntilPlaying(Self.canaryURL(server))
        #expect(await radio.waitUntil("the title", timeout: 15) { radio.metadata.contains { $0.title == Self.titleCanary } })
        #expect(await radio.waitUntil("a position", timeout: 15) { radio.updates.contains { if case .position = $0 { true } else { false } } })
        try await radio.player.stop()
        await radio.waitFor("the stop", timeout: 15) { $0.name == .finished || $0.name == .idle }
        await radio.shutdown()

        // The canary really went out: the server saw the token in the query.
        #expect(server.requests.first?.uri.contains("token=\(Self.canary)") == true)
        let records = capture.all
        let messages = records.map(\.message)
        #expect(messages.contains("HTTP request"))
        #expect(messages.contains("HTTP response"))
        #expect(messages.contains("HTTP request ended"))
        #expect(records.contains { $0.message == "HTTP request" && $0.metadata["url"] == "http://127.0.0.1:\(server.port)/stream.mp3" })
        #expect(records.contains { $0.message == "HTTP response" && $0.metadata["status"] == "200" })
        #expect(records.contains { $0.level == .info && $0.message == "state" && $0.metadata["state"] == "playing" })
        #expect(records.contains { $0.level == .notice && $0.message == "connected" && $0.metadata["host"] == "127.0.0.1:\(server.port)" })
        #expect(records.contains { $0.level == .debug && $0.message == "event" && $0.metadata["event"] == "play" })
        #expect(records.contains { $0.level == .debug && $0.message == "effect" && $0.metadata["effect"] == "load" })
        #expect(records.contains { $0.level == .trace && $0.metadata["event"] == "positionChanged" })
        Self.expectClean(records)
    }

    @Test func anEpisodePlaysThroughTheResumingSourceAndNoRecordHoldsTheCanary() async throws {
        let audio = try RadioFixtures.audio()
        let server = try TestHTTPServer { _ in .complete(contentType: "audio/mpeg", body: audio) }
        defer { server.stop() }
        let capture = LogCapture()
        let radio = try await RadioHarness(logger: capture.logger(level: .trace))
        try await radio.play(Self.canaryURL(server, path: "/episode.mp3"), kind: .episode, title: "Episode \(Self.titleCanary)")
        await radio.waitFor("playing", timeout: 30) { $0.name == .playing }
        try await radio.player.stop()
        await radio.waitFor("the stop", timeout: 15) { $0.name == .finished || $0.name == .idle }
        await radio.shutdown()

        let records = capture.all
        #expect(records.contains { $0.message == "HTTP response" && $0.metadata["status"] == "200" })
        #expect(records.contains { $0.level == .info && $0.message == "state" && $0.metadata["state"] == "playing" })
        Self.expectClean(records)
    }

    @Test func aRefusedStreamIsLoggedAsAFailureWithoutTheCanary() async throws {
        let server = try TestHTTPServer { _ in .complete(status: 404, contentType: "text/plain", body: Data("no such mount".utf8)) }
        defer { server.stop() }
        let capture = LogCapture()
        let radio = try await RadioHarness(logger: capture.logger(level: .trace))
        try await radio.play(Self.canaryURL(server))
        await radio.waitFor("failed", timeout: 30) { $0.name == .failed }
        await radio.shutdown()

        let records = capture.all
        let fault = records.first { $0.level == .warning && $0.message == "playback fault" }
        #expect(fault?.metadata["errorType"] == PlaybackError(.httpNotFound).errorType)
        #expect(fault?.metadata["httpStatus"] == "404")
        #expect(records.contains { $0.level == .error && $0.message == "playback failed" && $0.metadata["code"] == "\(PlaybackError.Code.httpNotFound.rawValue)" })
        #expect(records.contains { $0.message == "HTTP request ended" && $0.metadata["outcome"] == "failed" && $0.metadata["status"] == "404" })
        Self.expectClean(records)
    }

    @Test func aConnectionRefusedIsRetriedAndLoggedWithoutTheCanary() async throws {
        let refusing = try TestHTTPServer.refusingPort()
        defer { refusing.release() }
        let port = refusing.port
        let capture = LogCapture()
        let radio = try await RadioHarness(logger: capture.logger(level: .trace))
        let url = URL(string: "http://canaryuser:\(Self.canary)@127.0.0.1:\(port)/stream.mp3?token=\(Self.canary)")!
        try await radio.play(url)
        await radio.waitFor("reconnecting", timeout: 30) { $0.name == .reconnecting }
        try await radio.player.stop()
        await radio.shutdown()

        let records = capture.all
        #expect(records.contains { $0.level == .notice && $0.message == "reconnect scheduled" && $0.metadata["attempt"] == "1" })
        #expect(records.contains { $0.level == .warning && $0.message == "playback fault" && $0.metadata["errorType"] == PlaybackError(.connectionFailed).errorType })
        #expect(records.contains { $0.level == .info && $0.metadata["state"] == "reconnecting" })
        #expect(!records.contains { $0.level == .error })
        Self.expectClean(records)
    }

    @Test func givingUpIsAnErrorRecordWithTheCauseAndWithoutTheCanary() async throws {
        let refusing = try TestHTTPServer.refusingPort()
        defer { refusing.release() }
        let port = refusing.port
        let capture = LogCapture()
        let radio = try await RadioHarness(configuration: RadioHarness.configuration(giveUpAfter: 1), logger: capture.logger(level: .trace))
        try await radio.play(URL(string: "http://canaryuser:\(Self.canary)@127.0.0.1:\(port)/stream.mp3?token=\(Self.canary)")!)
        await radio.waitFor("failed", timeout: 60) { $0.name == .failed }
        await radio.shutdown()

        let records = capture.all
        let gaveUp = records.first { $0.level == .error && $0.message == "reconnect given up" }
        #expect(gaveUp?.metadata["errorType"] == PlaybackError(.connectionFailed).errorType)
        #expect(gaveUp?.metadata["recoverable"] == "true")
        #expect(gaveUp?.metadata["underlying"]?.isEmpty == false)
        Self.expectClean(records)
    }

    @Test func aNetworkClientRequestAndItsRetryAreLoggedWithoutTheCanary() async throws {
        let counter = Counter()
        let server = try TestHTTPServer { _ in
            counter.next() == 1
                ? .complete(status: 503, contentType: "text/plain", body: Data("busy".utf8), headers: [("Retry-After", "0")])
                : .complete(contentType: "application/json", body: Data("{}".utf8))
        }
        defer { server.stop() }
        let capture = LogCapture()
        let client = NetworkClient(clock: ImmediateClock(), logger: capture.logger(level: .trace))
        let response = try await client.data(from: Self.canaryURL(server, path: "/status.json"), operation: "status")
        #expect(response.status == 200)

        let records = capture.all
        #expect(records.filter { $0.message == "HTTP request" }.count == 2)
        #expect(records.contains { $0.message == "HTTP request failed" && $0.metadata["httpStatus"] == "503" })
        #expect(records.contains { $0.level == .notice && $0.message == "HTTP retry scheduled" && $0.metadata["attempt"] == "2" })
        #expect(records.contains { $0.message == "HTTP response" && $0.metadata["status"] == "200" && $0.metadata["bytes"] == "2" })
        Self.expectClean(records)
    }

    @Test func anEpisodeDownloadThatIsCutResumesAndTheDecisionIsLoggedWithoutTheCanary() async throws {
        let file = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let counter = Counter()
        let server = try TestHTTPServer { request in
            .file(file, for: request, ending: counter.next() == 1 ? .cut(after: 80_000) : .complete)
        }
        defer { server.stop() }
        let capture = LogCapture()
        var configuration = ResumableHTTPSource.Configuration()
        configuration.capacity = 1 << 20
        let source = ResumableHTTPSource(url: Self.canaryURL(server, path: "/episode.mp3"), configuration: configuration, logger: capture.logger())
        defer { source.close() }
        // `read` blocks: it runs on a thread of its own, never the cooperative pool.
        let bytes = try await onOwnThread { () -> [UInt8] in
            var result: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 7_000)
            while result.count < 1 << 20 {
                let got = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                if got == 0 { break }
                result.append(contentsOf: buffer[0..<got])
            }
            return result
        }
        #expect(bytes == [UInt8](file))
        #expect(server.requests.map { $0.header("Range") } == [nil, "bytes=80000-"])

        let records = capture.all
        let resume = records.first { $0.level == .notice && $0.message == "episode request resumes" }
        #expect(resume?.metadata["offset"] == "80000")
        #expect(resume?.metadata["errorType"] == PlaybackError(.connectionLost).errorType)
        #expect(records.contains { $0.message == "HTTP request" && $0.metadata["range"] == "bytes=80000-" })
        #expect(records.contains { $0.message == "HTTP response" && $0.metadata["status"] == "206" })
        Self.expectClean(records)
    }

    @Test func aFeedThatFailsIsLoggedByTheLibraryWithoutTheCanary() async throws {
        // A feed that parses on the first try, then a server error: the title and feed URL must
        // appear in no record above debug, the canary in none at all.
        let counter = Counter()
        let feed = PodcastLibraryTests.feed(title: "Feed \(Self.titleCanary)", items: [("a", "Episode \(Self.titleCanary)", "https://cdn.example.org/1.mp3")])
        let server = try TestHTTPServer { _ in
            counter.next() == 1
                ? .complete(contentType: "application/rss+xml", body: feed)
                : .complete(status: 404, contentType: "text/plain", body: Data("gone".utf8))
        }
        defer { server.stop() }
        let capture = LogCapture()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-log-podcasts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LibraryStore.open(directory: directory)
        var options = PodcastLibrary.Options()
        options.policy = .once
        let library = PodcastLibrary(
            store: store, network: NetworkClient(logger: capture.logger()), options: options, logger: capture.logger())
        let podcast = try await library.add(feedURL: Self.canaryURL(server, path: "/feed.xml"))
        await #expect(throws: PlaybackError.self) { try await library.refresh(podcast) }

        let records = capture.all
        let failure = records.first { $0.level == .warning && $0.message == "library operation failed" }
        #expect(failure?.metadata["operation"] == "refreshPodcast")
        #expect(failure?.metadata["errorType"] == PlaybackError(.httpNotFound).errorType)
        #expect(records.contains { $0.message == "HTTP response" && $0.metadata["operation"] == "podcastFeed" && $0.metadata["status"] == "200" })
        Self.expectClean(records)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func next() -> Int { lock.withLock { count += 1; return count } }
    }
}
