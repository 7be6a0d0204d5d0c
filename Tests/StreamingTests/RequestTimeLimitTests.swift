import Clocks
import Foundation
import PlayerCore
import Streaming
import TestProcesses
import Testing

/// A request's time limits run on the client's injected `timeoutClock`: a server that answers its
/// head and then holds the body is given up when that clock says the limit passed. Here a clock
/// whose time passes at once meets limits of an hour, so the tests end within their own time
/// limit (ten minutes, room for a blocking test's wait for its turn) only if the injected clock decides.
@Suite("Request time limits", .blocking)
struct RequestTimeLimitTests {
    static func holdingServer(contentType: String) throws -> TestHTTPServer {
        try TestHTTPServer { _ in
            TestHTTPServer.Response(
                status: 200, headers: [("Content-Type", contentType), ("Content-Length", "100000")], body: [.bytes(Data("ab".utf8)), .hold])
        }
    }

    static let client = NetworkClient(clock: ImmediateClock(), timeoutClock: ImmediateClock(), breakers: nil)

    @Test(.timeLimit(.minutes(10)))
    func aDocumentWhoseBodyIsHeldIsGivenUpByTheInjectedClock() async throws {
        let server = try Self.holdingServer(contentType: "application/json")
        defer { server.stop() }
        let error = await #expect(throws: PlaybackError.self) {
            try await Self.client.data(from: server.url("/status.json"), operation: "test", options: .init(timeout: 3600, policy: .once))
        }
        #expect(error?.code == .connectionTimeout, "\(String(describing: error))")
    }

    @Test(.timeLimit(.minutes(10)))
    func aDownloadWhoseBodyFallsSilentIsGivenUpByTheInjectedClock() async throws {
        let server = try Self.holdingServer(contentType: "audio/mpeg")
        defer { server.stop() }
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-held-\(UUID().uuidString).part")
        defer { try? FileManager.default.removeItem(at: target) }
        var options = FileDownload.Options()
        options.idleTimeout = 3600
        options.policy = .once
        let error = await #expect(throws: PlaybackError.self) {
            _ = try await Self.client.download(server.url("/episode.mp3"), to: target, validators: nil, options: options)
        }
        #expect(error?.code == .connectionTimeout, "\(String(describing: error))")
    }
}
