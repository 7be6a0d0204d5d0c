import Clocks
import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Streaming
import Synchronization
import TestProcesses
import Testing

/// A feed whose server stopped answering, refreshed over days against a real HTTP server, with the
/// wall clock moved on by the test: it costs its full retries until the rule judges it usually
/// unreachable, then a refresh of all leaves it out (no request at all) until its daily try, the
/// listener's own refresh asks once, and the first answer puts it back at once.
@Suite("Learned retries: a dead feed over days", .serialized, .blocking)
struct LearnedRetryRefreshTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aDeadFeedStopsCostingRefreshTimeAndComesBackWithItsFirstAnswer() async throws {
        let alive = Mutex(true)
        let body = PodcastLibraryTests.feed(title: "Gone Quiet", items: [("a", "First", "https://cdn.example.org/1.mp3")])
        let server = try TestHTTPServer { request in
            guard request.path == "/dead.xml", !alive.withLock({ $0 }) else { return .complete(contentType: "application/rss+xml", body: body) }
            return .init(status: 503, headers: [("Content-Length", "0")])
        }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-learned-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LibraryStore.open(directory: directory)
        let clock = Mutex(Self.start)
        var options = PodcastLibrary.Options()
        options.policy = BackoffPolicy(maxAttempts: 3, base: 1, cap: 1, strategy: .constant)
        options.learnedRetries = LearnedRetryRule(failedRuns: 3, days: 2, probeHours: 24)
        options.now = { clock.withLock { $0 } }
        let library = PodcastLibrary(store: store, network: NetworkClient(clock: ImmediateClock(), breakers: nil), options: options)
        let dead = try await library.add(feedURL: server.url("/dead.xml"))
        _ = try await library.add(feedURL: server.url("/alive.xml"))
        alive.withLock { $0 = false }

        /// Refreshes all; returns the requests the dead feed cost and its outcome.
        func refreshAll(after hours: Double) async throws -> (requests: Int, outcome: Result<PodcastLibrary.RefreshOutcome, PlaybackError>) {
            clock.withLock { $0 += hours * 3_600 }
            let before = server.requests.filter { $0.path == "/dead.xml" }.count
            let reports = try await library.refreshAll()
            #expect(reports.count == 2)
            let deadReport = try #require(reports.first { $0.podcast.id == dead.id })
            return (server.requests.filter { $0.path == "/dead.xml" }.count - before, deadReport.outcome)
        }

        // A day apart, three refreshes: each costs its three tries, the full backoff.
        for _ in 0..<3 {
            let run = try await refreshAll(after: 24)
            #expect(run.requests == 3)
            #expect(run.outcome.failureValue?.code == .httpRetryable)
        }
        // Three failed runs over two days: usually unreachable. Within the day: skipped, no request.
        var run = try await refreshAll(after: 1)
        #expect(run.requests == 0)
        #expect(run.outcome.successValue == .skipped(unreachableSince: Self.start + 24 * 3_600, nextTry: Self.start + 72 * 3_600 + 24 * 3_600))
        // The listener refreshes it alone: one try, no backoff.
        let lone = await catching { () async throws(PlaybackError) in try await library.refresh(dead) }
        #expect(lone.failureValue?.code == .httpRetryable)
        // Literals kept out of the expectation: summed inside the macro they cost seconds of type-checking.
        let deadRequests: Int = server.requests.filter { $0.path == "/dead.xml" }.count
        let expectedRequests: Int = 1 + 9 + 1
        #expect(deadRequests == expectedRequests, "the subscription, three runs of three, one")
        // Its daily try in automatic work: once.
        run = try await refreshAll(after: 24)
        #expect(run.requests == 1)
        #expect(try store.reachability(.feed(podcastID: dead.id)).consecutiveFailures == 5)

        // It answers again: the next daily try brings it back, and the refresh after is as usual.
        alive.withLock { $0 = true }
        run = try await refreshAll(after: 24)
        #expect(run.requests == 1)
        if case .success(.updated) = run.outcome {} else { Issue.record("not refreshed: \(run.outcome)") }
        let record = try store.reachability(.feed(podcastID: dead.id))
        #expect(record.consecutiveFailures == 0 && record.failingSince == nil)
        run = try await refreshAll(after: 1)
        #expect(run.requests == 1)

        // How runs ended on this (loopback) server: first tries of both feeds, and the dead one's five.
        let endings = try #require(try store.runEndings()[.loopback])
        #expect(endings.neverRecovered == 5)
        #expect(endings.succeededAtTry[1] == 7 + 2, "\(endings)")  // the live feed's 7 refreshes, the dead one's 2 after it came back
    }
}

private func catching<T>(_ body: () async throws(PlaybackError) -> T) async -> Result<T, PlaybackError> {
    do throws(PlaybackError) {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

extension Result {
    fileprivate var failureValue: Failure? { if case .failure(let error) = self { error } else { nil } }
    fileprivate var successValue: Success? { if case .success(let value) = self { value } else { nil } }
}
