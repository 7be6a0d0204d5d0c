import Foundation
import PlayerCore
import Streaming
import TestProcesses
import Testing

/// Stream connections and their hosts' breakers, against real servers: a failed connect counts
/// against the host and an open host refuses the next connect without a connection; an answer
/// (even a 404) and whatever happens after the head (a drop mid-body) do not count against it.
@Suite("Stream connections and host breakers", .blocking)
struct ConnectionBreakerTests {
    /// Opens `url` on a thread of its own (the source blocks) and returns how the connect ended.
    static func connect(_ url: URL, breakers: HostCircuitBreakers) async -> PlaybackError? {
        await onOwnThread { () -> PlaybackError? in
            let source = HTTPByteSource(url: url, breakers: breakers)
            defer { source.close() }
            do throws(PlaybackError) {
                _ = try source.waitForResponse(timeout: .seconds(6))
                return nil
            } catch {
                return error
            }
        }
    }

    @Test func anOpenHostRefusesTheNextConnectWithoutConnecting() async throws {
        let server = try DroppingServer()
        defer { server.stop() }
        let breakers = HostCircuitBreakers(failureThreshold: 2)
        let url = URL(string: "\(server.baseURL)/live")!
        #expect(await Self.connect(url, breakers: breakers)?.code == .connectionLost)
        #expect(await Self.connect(url, breakers: breakers)?.code == .connectionLost)
        let before = server.connections
        let refused = await Self.connect(url, breakers: breakers)
        #expect(refused?.code == .circuitOpen)
        #expect(refused?.host == "127.0.0.1:\(server.port)")
        // The breaker runs on the real clock here; the test is over long before its 30 s pass.
        guard case .seconds(let wait)? = refused?.retryAfter else { Issue.record("no retryAfter"); return }
        #expect(wait > 20 && wait <= ResilienceDefaults.breakerOpenDuration)
        #expect(server.connections == before, "no connection while the breaker is open")
    }

    @Test func answersAndDropsAfterTheHeadDoNotCountAgainstTheHost() async throws {
        let server = try TestHTTPServer { request in
            request.path == "/missing"
                ? .complete(status: 404, contentType: "text/plain", body: Data())
                : TestHTTPServer.Response(status: 200, headers: [("Content-Type", "audio/mpeg")], body: [.bytes(Data(count: 1000)), .cut])
        }
        defer { server.stop() }
        let breakers = HostCircuitBreakers(failureThreshold: 1)
        #expect(await Self.connect(server.url("/missing"), breakers: breakers)?.code == .httpNotFound)
        #expect(await Self.connect(server.url("/live"), breakers: breakers) == nil)
        #expect(await Self.connect(server.url("/live"), breakers: breakers) == nil)
        #expect(breakers.state(of: "127.0.0.1:\(server.port)") == .closed)
    }
}
