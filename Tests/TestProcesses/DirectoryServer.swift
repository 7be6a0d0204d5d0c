import Foundation

/// A local stand-in for the radio-browser directory: a real HTTP server answering
/// `/json/servers`, `/json/stations/search` and `/json/url/{id}` with the hand-written answers in
/// `DirectoryFixtures/` (written from the directory's documented format; nothing is fetched at
/// test time). `STREAM_URL` in a fixture becomes `streamBase`, so a station found can be played
/// from a server the test started. `failing` makes every answer a 503 (a server that is down).
package final class DirectoryServer: Sendable {
    package let http: TestHTTPServer
    package var baseURL: URL { URL(string: http.baseURL)! }
    /// The ids whose clicks were counted, in order.
    package var clicks: [String] { http.requests.filter { $0.path.hasPrefix("/json/url/") }.map { String($0.path.dropFirst("/json/url/".count)) } }
    /// The search requests received.
    package var searches: [TestHTTPServer.Request] { http.requests.filter { $0.path == "/json/stations/search" } }

    package static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("DirectoryFixtures")

    package static func fixture(_ name: String, streamBase: String) throws -> Data {
        let text = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
        return Data(text.replacingOccurrences(of: "STREAM_URL", with: streamBase).utf8)
    }

    package init(streamBase: String = "http://127.0.0.1:9", failing: Bool = false) throws {
        let search = try Self.fixture("search-jazz.json", streamBase: streamBase)
        let click = try Self.fixture("url-click.json", streamBase: streamBase)
        let servers = try Self.fixture("servers.json", streamBase: streamBase)
        http = try TestHTTPServer { request in
            if failing { return .complete(status: 503, contentType: "text/plain", body: Data("down".utf8)) }
            switch request.path {
            case "/json/servers": return .complete(contentType: "application/json", body: servers)
            case "/json/stations/search": return .complete(contentType: "application/json", body: search)
            case let path where path.hasPrefix("/json/url/"): return .complete(contentType: "application/json", body: click)
            default: return .complete(status: 404, contentType: "text/plain", body: Data("no".utf8))
            }
        }
    }

    package func stop() { http.stop() }
}
