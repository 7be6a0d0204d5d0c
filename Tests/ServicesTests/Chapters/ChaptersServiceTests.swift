import Clocks
import Foundation
import PlayerCore
import Services
import Streaming
import Testing
import TestProcesses

/// The chapters fetch against a real HTTP server on 127.0.0.1, with an immediate clock so
/// retries never wait.
@Suite(.blocking) struct ChaptersServiceTests {
    let network = NetworkClient(clock: ImmediateClock(), seed: 7)

    static let document = Data(
        #"{"version":"1.2.0","chapters":[{"startTime":0,"title":"Intro"},{"startTime":30,"title":"Main"}]}"#.utf8)

    func service(allowPrivate: Bool = true, maxBytes: Int = ServiceLimits.maxChaptersBytes, analytics: ErrorAnalytics? = nil) -> ChaptersService {
        ChaptersService(network: network, configuration: .init(allowPrivateAddresses: allowPrivate, maxBytes: maxBytes), analytics: analytics)
    }

    func failure(_ result: Result<ChapterList, PlaybackError>) -> PlaybackError.Code? {
        if case .failure(let error) = result { error.code } else { nil }
    }

    @Test func chaptersAreFetchedAndParsed() async throws {
        let server = try TestHTTPServer { _ in .complete(contentType: "application/json+chapters", body: Self.document) }
        defer { server.stop() }
        let list = try await service().load(server.url("/ep/chapters.json"), trackID: "episode:9")
        #expect(list.chapters.map(\.title) == ["Intro", "Main"])
        #expect(list.trackID == "episode:9")
        #expect(server.requests.first?.header("Accept")?.contains("application/json+chapters") == true)
    }

    @Test func aLoopbackAddressIsRefusedUnlessConfigured() async throws {
        let server = try TestHTTPServer { _ in .complete(contentType: "application/json", body: Self.document) }
        defer { server.stop() }
        let result = await service(allowPrivate: false).chapters(at: server.url("/c.json"), trackID: "episode:1")
        #expect(failure(result) == .permissionDenied)
        #expect(server.requests.isEmpty, "nothing is asked of a refused host")
    }

    @Test func aDocumentOverTheCapIsRefused() async throws {
        let big = Data(("{\"chapters\":[]}" + String(repeating: " ", count: 64 * 1024)).utf8)
        let server = try TestHTTPServer { _ in .complete(contentType: "application/json", body: big) }
        defer { server.stop() }
        let analytics = ErrorAnalytics(store: InMemoryErrorEventStore())
        let result = await service(maxBytes: 16 * 1024, analytics: analytics).chapters(at: server.url("/c.json"), trackID: "episode:1")
        #expect(failure(result) == .documentTooLarge)
        #expect(server.requests.count == 1, "a document too large is not retried")
        #expect(try await analytics.events().map(\.operation) == ["loadChapters"])
    }

    @Test func aWebPageIsWrongContentType() async throws {
        let html = Data("<!DOCTYPE html><html><body>Sign in</body></html>".utf8)
        let server = try TestHTTPServer { _ in .complete(contentType: "text/html", body: html) }
        defer { server.stop() }
        #expect(failure(await service().chapters(at: server.url("/c.json"), trackID: "e")) == .wrongContentType)
        let plain = try TestHTTPServer { _ in .complete(contentType: "text/plain", body: html) }
        defer { plain.stop() }
        #expect(failure(await service().chapters(at: plain.url("/c.json"), trackID: "e")) == .wrongContentType, "sniffed: not JSON")
    }

    @Test func notTheFormatIsMalformedData() async throws {
        let server = try TestHTTPServer { _ in .complete(contentType: "application/json", body: Data(#"{"chapters": "soon"}"#.utf8)) }
        defer { server.stop() }
        #expect(failure(await service().chapters(at: server.url("/c.json"), trackID: "e")) == .malformedData)
    }

    @Test func notHTTPIsRefused() async {
        #expect(failure(await service().chapters(at: URL(fileURLWithPath: "/etc/passwd"), trackID: "e")) == .streamUnavailable)
    }
}
