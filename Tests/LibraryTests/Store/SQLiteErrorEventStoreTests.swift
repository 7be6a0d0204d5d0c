import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import Library

private let day: TimeInterval = 24 * 3600

/// Off the cooperative pool: writing and summarising tens of thousands of events is a minute of
/// synchronous SQLite work that would otherwise hold the pool's threads (see `BlockingTrait`).
@Suite("Library store: persistent error analytics", .blocking)
struct SQLiteErrorEventStoreTests {
    @Test func recordsResolvesAndExportsThroughErrorAnalytics() async throws {
        let temporary = try TemporaryDirectory()
        let clock = StoreTestClock(Date(timeIntervalSince1970: 1_750_000_000.75))
        let store = try LibraryStore.open(directory: temporary.url, now: clock.function)
        let analytics = ErrorAnalytics(store: store.errorEvents, now: clock.function)
        let timeout = await analytics.record(PlaybackError(.connectionTimeout), operation: "playStation", userAction: "play_button")
        clock.advance(by: 5)
        let missing = await analytics.record(PlaybackError(.missingAudioURL), operation: "playEpisode")
        #expect(await analytics.recordResolution(timeout.id, .automaticRetry))
        #expect(await !analytics.recordResolution(UUID(), .manualRetry))

        let events = try await analytics.events()
        #expect(events == [timeout.resolved(.automaticRetry), missing])
        #expect(events[0].timestamp == Date(timeIntervalSince1970: 1_750_000_000))
        #expect(events[0].userAction == "play_button")
        #expect(events[1].userAction == nil)
        #expect(try ErrorAnalytics.decodeExport(try await analytics.exportJSON()) == events)
        #expect(await analytics.storeFailureCount == 0)

        // A second process (or the next run) sees the same history.
        let reopened = try LibraryStore.open(directory: temporary.url, now: clock.function)
        #expect(try await reopened.errorEvents.allEvents() == events)
        #expect(try await reopened.errorEvents.count() == 2)
        #expect(try await reopened.errorEvents.events(since: Date(timeIntervalSince1970: 1_750_000_001)) == [missing])
    }

    @Test func retentionKeepsTheNewestTenThousand() async throws {
        let temporary = try TemporaryDirectory()
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        let clock = StoreTestClock(start.addingTimeInterval(20_000))
        let store = try LibraryStore.open(directory: temporary.url, now: clock.function)
        for second in 0..<10_000 {
            try await store.errorEvents.append(
                ErrorEvent(PlaybackError(.stalled), operation: "listen", timestamp: start.addingTimeInterval(TimeInterval(second))))
        }
        let analytics = ErrorAnalytics(store: store.errorEvents, now: clock.function)
        let newest = await analytics.record(PlaybackError(.offline), operation: "listen")
        let kept = try await analytics.events()
        #expect(kept.count == 10_000)
        #expect(kept.first?.timestamp == start.addingTimeInterval(1))
        #expect(kept.last == newest)
    }

    @Test func retentionDropsEventsOlderThanNinetyDays() async throws {
        let temporary = try TemporaryDirectory()
        let clock = StoreTestClock()
        let store = try LibraryStore.open(directory: temporary.url, now: clock.function)
        let analytics = ErrorAnalytics(store: store.errorEvents, now: clock.function)
        let first = await analytics.record(PlaybackError(.offline), operation: "a")
        clock.advance(by: 10 * day)
        let second = await analytics.record(PlaybackError(.offline), operation: "b")
        clock.advance(by: 80 * day)  // first is exactly 90 days old: still kept
        #expect(try await analytics.events() == [first, second])
        clock.advance(by: 1)
        #expect(try await analytics.events() == [second])
        #expect(try await analytics.summary().totalErrors == 1)
    }

    @Test func sqlSummaryEqualsTheInMemoryComputation() async throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let memory = InMemoryErrorEventStore(capacity: 100_000)
        let now = Date(timeIntervalSince1970: 1_750_000_000.4)
        let codes: [PlaybackError.Code] = [.offline, .connectionTimeout, .httpNotFound, .stalled, .corruptData, .missingAudioURL]
        let operations: [AnalyticsIdentifier] = ["playStation", "playEpisode", "refreshFeed", "a", "B", "bad name/with path"]
        var random = SeededRandom(seed: 2_024)
        var events: [ErrorEvent] = []
        for _ in 0..<3_000 {
            let event = ErrorEvent(
                PlaybackError(codes.randomElement(using: &random)!), operation: operations.randomElement(using: &random)!,
                userAction: Bool.random(using: &random) ? "retry_button" : nil,
                resolution: ErrorEvent.Resolution.allCases.randomElement(using: &random)!,
                // Up to 9 days back, with events right at the 24 h and 7 d bounds.
                timestamp: now.addingTimeInterval(-TimeInterval(Int.random(in: 0...(9 * 86_400), using: &random))))
            events.append(event)
        }
        events += [now.addingTimeInterval(-day), now.addingTimeInterval(-7 * day), now.addingTimeInterval(-day - 1)].map {
            ErrorEvent(PlaybackError(.offline), operation: "edge", timestamp: $0)
        }
        // Exact ties in both top lists: two types and two operations with 40 events each.
        for index in 0..<80 {
            events.append(ErrorEvent(
                PlaybackError(index.isMultiple(of: 2) ? .tlsFailure : .dnsFailure), operation: index < 40 ? "tieB" : "tieA",
                timestamp: now.addingTimeInterval(-TimeInterval(index))))
        }
        for event in events {
            try await store.errorEvents.append(event)
            await memory.append(event)
        }

        for topCount in [0, 3, 5, 100] {
            for moment in [now, now.addingTimeInterval(0.6), now.addingTimeInterval(3 * day + 0.25)] {
                let expected = ErrorAnalyticsSummary(events: try await memory.allEvents(), now: moment, topCount: topCount)
                #expect(try await store.errorEvents.summary(now: moment, topCount: topCount) == expected)
                #expect(try await memory.summary(now: moment, topCount: topCount) == expected)
            }
        }
        let summary = try await store.errorEvents.summary(now: now, topCount: 100)
        #expect(summary.totalErrors == events.count)
        #expect(summary.topErrorOperations.contains { $0.operation == "other" })
        // Equal counts: names ascending.
        #expect(summary.topErrorTypes.filter { $0.count == 40 }.map(\.type) == ["Network.dnsFailure", "Network.tlsFailure"])
        #expect(summary.topErrorOperations.filter { $0.errorCount == 40 }.map(\.operation) == ["tieA", "tieB"])
    }

    @Test func analyticsSummaryReadsTheStore() async throws {
        let temporary = try TemporaryDirectory()
        let clock = StoreTestClock()
        let store = try LibraryStore.open(directory: temporary.url, now: clock.function)
        let analytics = ErrorAnalytics(store: store.errorEvents, now: clock.function)
        let first = await analytics.record(PlaybackError(.offline), operation: "playStation")
        await analytics.record(PlaybackError(.offline), operation: "playStation")
        await analytics.record(PlaybackError(.httpNotFound), operation: "refreshFeed")
        await analytics.recordResolution(first.id, .manualRetry)
        clock.advance(by: 2 * day)
        let summary = try await analytics.summary()
        #expect(summary == ErrorAnalyticsSummary(events: try await analytics.events(), now: clock.now))
        #expect(summary.totalErrors == 3)
        #expect(summary.errorsLast24Hours == 0)
        #expect(summary.topErrorOperations.first == .init(operation: "playStation", errorCount: 2))
    }

    /// Analytics must hold no personal data: the underlying texts of recorded errors never reach
    /// any byte of the database or its WAL.
    @Test func underlyingTextsNeverReachTheFile() async throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let analytics = ErrorAnalytics(store: store.errorEvents)
        let canaries = ["token=SECRET123", "/home/alice/", "Episode Title Canary 7781"]
        let errors = [
            PlaybackError(.httpUnauthorized, httpStatus: 401, underlying: "GET https://cdn.example.org/ep.mp3?token=SECRET123 failed"),
            PlaybackError(.fileNotFound, underlying: "open /home/alice/Music/private.mp3: No such file"),
            PlaybackError(.corruptData, underlying: "decoding 'Episode Title Canary 7781' failed"),
        ]
        for (error, canary) in zip(errors, canaries) {
            #expect(error.description.contains(canary))  // the canary is really in what was recorded
            let event = await analytics.record(error, operation: "playEpisode", userAction: AnalyticsIdentifier(canary))
            await analytics.recordResolution(event.id, .manualRetry)
        }
        #expect(await analytics.storeFailureCount == 0)

        var bytes = Data()
        for suffix in ["", "-wal", "-shm"] {
            bytes += (try? Data(contentsOf: URL(fileURLWithPath: store.databaseURL.path + suffix))) ?? Data()
        }
        // The search sees what was written (the error types are there)...
        #expect(bytes.range(of: Data("Authorization.denied".utf8)) != nil)
        // ...and none of the private texts.
        for canary in canaries + ["SECRET123", "alice", "Canary 7781"] {
            #expect(bytes.range(of: Data(canary.utf8)) == nil, "found \(canary)")
        }
    }
}
