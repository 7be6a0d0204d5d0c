import Clocks
import Foundation
import Library
import PlayerCore
import Presentation
import Streaming
import TestProcesses
import Testing

@testable import LibraryKit
@testable import PlayerKit

/// An OPML import against a host that accepts and drops every connection: the host's circuit
/// breaker stops the import's attempts early, and every feed not tried says why (`circuitOpen`,
/// naming the host and when it is tried again). A real TCP server; backoff waits on an immediate
/// clock and the breaker on a test clock that never moves, so nothing sleeps or races the clock.
@Suite("OPML import against a dropping host", .blocking)
struct OPMLImportBreakerTests {
    static func opml(_ urls: [String]) -> Data {
        let outlines = urls.enumerated().map { #"<outline text="Feed \#($0.offset)" type="rss" xmlUrl="\#($0.element)"/>"# }
        return Data(#"<?xml version="1.0"?><opml version="2.0"><head><title>Mine</title></head><body>"#.utf8)
            + Data(outlines.joined(separator: "\n").utf8) + Data("</body></opml>".utf8)
    }

    @Test func twentyFeedsOnADroppingHostMakeAtMostSixConnections() async throws {
        let server = try DroppingServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-breaker-\(UUID().uuidString)")
        let store = try LibraryStore.open(directory: directory)
        let analytics = ErrorAnalytics(store: store.errorEvents)
        let statistics = RetryStatistics(store: store.retryStatistics)
        let breakers = HostCircuitBreakers(clock: TestClock())
        let network = NetworkClient(clock: ImmediateClock(), statistics: statistics, breakers: breakers)
        let library = PodcastLibrary(store: store, network: network, analytics: analytics)

        let feeds = (1...20).map { "\(server.baseURL)/feed-\($0).xml?token=SECRET" }
        let outcomes = try await library.importOPML(Self.opml(feeds))

        #expect(server.connections <= 6, "\(server.connections) connections")
        // The client's connection pool may fail a try without a new connection (it backs off a
        // host whose connections just failed), so the floor is one, not the breaker's threshold.
        #expect(server.connections >= 1)
        let host = "127.0.0.1:\(server.port)"
        #expect(breakers.state(of: host) == .open)
        let errors = outcomes.compactMap { outcome -> PlaybackError? in
            if case .failed(_, let error) = outcome { error } else { nil }
        }
        #expect(outcomes.count == 20 && errors.count == 20)
        // Every other feed was refused. How many were tried depends on how the two lanes to the host
        // interleave (a lane freed by a feed that gave up starts the next one); each tried feed made
        // at least one of the import's few attempts, checked against the statistics below.
        let refused = errors.filter { $0.code == .circuitOpen }
        #expect(refused.count >= 14, "\(refused.count) refused")
        #expect(Set(errors.filter { $0.code != .circuitOpen }.map(\.code)).isSubset(of: [.connectionLost]))
        for error in refused {
            #expect(error.host == host)
            #expect(error.retryAfter == .seconds(ResilienceDefaults.breakerOpenDuration))
            let text = error.text(in: .english, for: .feed)
            #expect(text.message.contains(host) && text.recoverySuggestion.contains("in 30 s"))
            #expect(!text.message.contains("SECRET") && !text.message.contains("feed-"))
        }
        #expect(try store.podcasts().isEmpty)

        // Every failure is in the analytics, the refusals as their own type.
        let types = try await analytics.events().map(\.errorType)
        #expect(types.count == 20)
        #expect(types.filter { $0 == "Network.circuitOpen" }.count == refused.count)
        // The retries were counted for the feed operation, and persisted.
        let summary = try await statistics.persistedSummary()
        let feed = try #require(summary.operations.first { $0.operation == "podcastFeed" })
        #expect(feed.runs == 20)
        #expect((ResilienceDefaults.breakerFailureThreshold...6).contains(feed.attempts), "\(feed.attempts) tries")
        #expect(20 - refused.count <= feed.attempts, "\(20 - refused.count) feeds tried in \(feed.attempts) attempts")
        #expect(feed.retrySuccessRate == 0)
    }

    @Test func lanesKeepAtMostTwoRequestsOnOneHost() {
        let urls = ["http://a.example/1", "http://a.example/2", "http://b.example/1", "http://a.example/3", "http://a.example/4",
                    "http://a.example:8000/1", "file:///tmp/x.xml"].map { URL(string: $0)! }
        #expect(HostLanes.lanes(for: urls, perHost: 2) == [[0, 3], [1, 4], [2], [5], [6]])
        #expect(HostLanes.lanes(for: urls, perHost: 1) == [[0, 1, 3, 4], [2], [5], [6]])
    }
}
