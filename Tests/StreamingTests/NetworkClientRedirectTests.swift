import Foundation
import PlayerCore
import Streaming
import TestProcesses
import Testing

/// `NetworkClient.data` following redirects itself (`tracksRedirects`) tells a permanent move
/// from a temporary one, against a real server; without it the answer is what it always was.
@Suite("NetworkClient: permanent redirects", .blocking)
struct NetworkClientRedirectTests {
    /// `/start` redirects through `chain` (one status per hop) to `/end`, which answers "done".
    static func server(chain: [Int]) throws -> TestHTTPServer {
        try TestHTTPServer { request in
            if request.path == "/end" {
                if request.header("If-None-Match") == "\"v\"" { return TestHTTPServer.Response(status: 304, headers: [("ETag", "\"v\"")]) }
                return .complete(contentType: "text/plain", body: Data("done".utf8))
            }
            let hop = request.path == "/start" ? 0 : Int(request.path.dropFirst(4)) ?? 0
            let next = hop + 1 < chain.count ? "/hop\(hop + 1)" : "/end"
            return TestHTTPServer.Response(status: chain[hop], headers: [("Location", next), ("Content-Length", "0")])
        }
    }

    static let client = NetworkClient(breakers: nil)

    @Test(arguments: [([301], true), ([308, 301], true), ([302], false), ([301, 307], false), ([303], false)])
    func permanentURLOnlyWhenEveryHopIsPermanent(chain: [Int], permanent: Bool) async throws {
        let server = try Self.server(chain: chain)
        defer { server.stop() }
        let response = try await Self.client.data(
            from: server.url("/start"), operation: "test", options: .init(policy: .once, tracksRedirects: true))
        #expect(String(decoding: response.body, as: UTF8.self) == "done")
        #expect(response.url == server.url("/end"))
        #expect(response.permanentURL == (permanent ? server.url("/end") : nil))
    }

    @Test func withoutRedirectsThereIsNoPermanentURL() async throws {
        let server = try Self.server(chain: [301])
        defer { server.stop() }
        let direct = try await Self.client.data(from: server.url("/end"), operation: "test", options: .init(policy: .once, tracksRedirects: true))
        #expect(direct.permanentURL == nil)
        // The client's own redirect handling (the default) cannot tell, so it says nothing.
        let followedByClient = try await Self.client.data(from: server.url("/start"), operation: "test", options: .init(policy: .once))
        #expect(String(decoding: followedByClient.body, as: UTF8.self) == "done")
        #expect(followedByClient.permanentURL == nil)
    }

    @Test func aConditionalRequestIsAnsweredNotModifiedThroughARedirect() async throws {
        let server = try Self.server(chain: [301])
        defer { server.stop() }
        let response = try await Self.client.data(
            from: server.url("/start"), operation: "test", options: .init(policy: .once, headers: ["If-None-Match": "\"v\""], tracksRedirects: true))
        #expect(response.status == 304)
        #expect(response.permanentURL == server.url("/end"))
    }
}
