import Foundation
import Synchronization
import Testing

@testable import PlayerCore

/// A clock the tests move by hand, so windows and retention never depend on the wall clock.
final class ErrorAnalyticsTestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_750_000_000)) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func set(_ date: Date) { current.withLock { $0 = date } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

    var function: @Sendable () -> Date { { self.now } }
}

private let hour: TimeInterval = 3600
private let day: TimeInterval = 24 * hour

/// Records `error` as if it happened `offset` seconds from `reference` (negative is the past).
private func record(
    _ analytics: ErrorAnalytics, _ clock: ErrorAnalyticsTestClock, at offset: TimeInterval, from reference: Date,
    _ code: PlaybackError.Code, operation: AnalyticsIdentifier, userAction: AnalyticsIdentifier? = nil
) async -> ErrorEvent {
    clock.set(reference.addingTimeInterval(offset))
    return await analytics.record(PlaybackError(code), operation: operation, userAction: userAction)
}

@Suite("ErrorAnalytics: counting and summary")
struct ErrorAnalyticsCountingTests {
    @Test func emptySummaryIsAllZero() async throws {
        let analytics = ErrorAnalytics(now: ErrorAnalyticsTestClock().function)
        let summary = try await analytics.summary()
        #expect(summary == ErrorAnalyticsSummary.empty)
        #expect(summary.totalErrors == 0)
        #expect(summary.successRate == 0)
        #expect(summary.retryableErrorsPercentage == 0)
        #expect(summary.topErrorTypes.isEmpty && summary.resolutionStats.isEmpty)
    }

    @Test func windowsCountEventsAtOneHourTwoDaysAndTenDays() async throws {
        let clock = ErrorAnalyticsTestClock()
        let reference = clock.now
        let analytics = ErrorAnalytics(now: clock.function)
        _ = await record(analytics, clock, at: -1 * hour, from: reference, .connectionTimeout, operation: "playStation")
        _ = await record(analytics, clock, at: -2 * day, from: reference, .offline, operation: "playStation")
        _ = await record(analytics, clock, at: -10 * day, from: reference, .fileNotFound, operation: "openFile")
        clock.set(reference)
        let summary = try await analytics.summary()
        #expect(summary.totalErrors == 3)
        #expect(summary.errorsLast24Hours == 1)
        #expect(summary.errorsLast7Days == 2)
    }

    @Test func windowBoundariesAreInclusive() async throws {
        let clock = ErrorAnalyticsTestClock()
        let reference = clock.now
        let analytics = ErrorAnalytics(now: clock.function)
        _ = await record(analytics, clock, at: -1 * day, from: reference, .offline, operation: "a")
        _ = await record(analytics, clock, at: -1 * day - 1, from: reference, .offline, operation: "a")
        _ = await record(analytics, clock, at: -7 * day, from: reference, .offline, operation: "a")
        _ = await record(analytics, clock, at: -7 * day - 1, from: reference, .offline, operation: "a")
        clock.set(reference)
        let summary = try await analytics.summary()
        #expect(summary.errorsLast24Hours == 1)
        #expect(summary.errorsLast7Days == 3)
        #expect(summary.totalErrors == 4)
    }

    @Test func retryableFractionFollowsTheTypedError() async throws {
        let clock = ErrorAnalyticsTestClock()
        let analytics = ErrorAnalytics(now: clock.function)
        // connectionTimeout and offline are retried automatically; fileNotFound and corruptData are not.
        for code: PlaybackError.Code in [.connectionTimeout, .offline, .connectionLost, .fileNotFound] {
            await analytics.record(PlaybackError(code), operation: "play")
        }
        let summary = try await analytics.summary()
        #expect(summary.retryableErrorsPercentage == 0.75)
        let events = try await analytics.events()
        #expect(events.map(\.isRetryable) == [true, true, true, false])
        #expect(events.map(\.errorType) == ["Network.timeout", "Network.offline", "Network.connectionLost", "Resource.fileNotFound"])
    }

    @Test func topListsSortByCountThenNameAndTruncate() async throws {
        let analytics = ErrorAnalytics(now: ErrorAnalyticsTestClock().function)
        let plan: [(PlaybackError.Code, AnalyticsIdentifier, Int)] = [
            (.connectionTimeout, "playStation", 4),
            (.offline, "refreshFeed", 2),
            (.dnsFailure, "fetchArtwork", 2),
            (.corruptData, "decode", 1),
            (.httpNotFound, "playEpisode", 3),
        ]
        for (code, operation, times) in plan {
            for _ in 0..<times { await analytics.record(PlaybackError(code), operation: operation) }
        }
        let summary = try await analytics.summary(topCount: 3)
        #expect(summary.topErrorTypes == [
            .init(type: "Network.timeout", count: 4),
            .init(type: "Resource.notFound", count: 3),
            .init(type: "Network.dnsFailure", count: 2),  // ties broken by name: dnsFailure < offline
        ])
        #expect(summary.topErrorOperations == [
            .init(operation: "playStation", errorCount: 4),
            .init(operation: "playEpisode", errorCount: 3),
            .init(operation: "fetchArtwork", errorCount: 2),
        ])
        let all = try await analytics.summary(topCount: 10)
        #expect(all.topErrorTypes.count == 5)
        #expect(all.topErrorTypes.last == .init(type: "Resource.corruptData", count: 1))
        let none = try await analytics.summary(topCount: 0)
        #expect(none.topErrorTypes.isEmpty && none.topErrorOperations.isEmpty)
        #expect(none.totalErrors == 12)
        let negative = try await analytics.summary(topCount: -3)
        #expect(negative.topErrorTypes.isEmpty)
        #expect(try await analytics.summary().topErrorTypes.count == 5)
    }

    @Test func resolutionStatsAndSuccessRate() async throws {
        let analytics = ErrorAnalytics(now: ErrorAnalyticsTestClock().function)
        var timeouts: [ErrorEvent] = []
        for _ in 0..<5 { timeouts.append(await analytics.record(PlaybackError(.connectionTimeout), operation: "playStation")) }
        let notFound = await analytics.record(PlaybackError(.httpNotFound), operation: "playEpisode", userAction: "retry_button")
        await analytics.record(PlaybackError(.corruptData), operation: "decode")
        await analytics.record(PlaybackError(.corruptData), operation: "decode")

        #expect(await analytics.recordResolution(timeouts[0].id, .automaticRetry))
        #expect(await analytics.recordResolution(timeouts[1].id, .automaticRetry))
        #expect(await analytics.recordResolution(timeouts[2].id, .automaticRetry))
        #expect(await analytics.recordResolution(timeouts[3].id, .manualRetry))
        #expect(await analytics.recordResolution(notFound.id, .manualRetry))
        #expect(await analytics.recordResolution(UUID(), .manualRetry) == false)

        let summary = try await analytics.summary()
        #expect(summary.resolutionStats == [
            "Network.timeout": .init(retry: 3, manual: 1, unresolved: 1),
            "Resource.notFound": .init(retry: 0, manual: 1, unresolved: 0),
            "Resource.corruptData": .init(retry: 0, manual: 0, unresolved: 2),
        ])
        #expect(summary.successRate == 5.0 / 8.0)
        #expect(summary.totalErrors == 8)

        // A later resolution replaces the earlier one; it never adds an event.
        #expect(await analytics.recordResolution(timeouts[3].id, .unresolved))
        let after = try await analytics.summary()
        #expect(after.successRate == 4.0 / 8.0)
        #expect(after.resolutionStats["Network.timeout"] == .init(retry: 3, manual: 0, unresolved: 2))
        #expect(after.totalErrors == 8)
    }

    @Test func eventsKeepOnlyTheAllowedFields() async throws {
        let clock = ErrorAnalyticsTestClock(Date(timeIntervalSince1970: 1_750_000_000.987))
        let analytics = ErrorAnalytics(now: clock.function)
        let event = await analytics.record(PlaybackError(.httpRetryable, httpStatus: 503), operation: "playStation", userAction: "play")
        #expect(event.errorType == "Network.serverUnavailable")
        #expect(event.operation.rawValue == "playStation")
        #expect(event.userAction?.rawValue == "play")
        #expect(event.isRetryable)
        #expect(event.resolution == .unresolved)
        #expect(event.timestamp == Date(timeIntervalSince1970: 1_750_000_000), "cut to whole seconds")
        let fields = Set(Mirror(reflecting: event).children.compactMap(\.label))
        #expect(fields == ["id", "timestamp", "errorType", "operation", "userAction", "isRetryable", "resolution"])
    }

    @Test func summaryFromEventsIsPureAndMatchesTheActor() async throws {
        let clock = ErrorAnalyticsTestClock()
        let analytics = ErrorAnalytics(now: clock.function)
        for code: PlaybackError.Code in [.offline, .offline, .stalled, .unsupportedFormat] {
            clock.advance(by: -hour)
            await analytics.record(PlaybackError(code), operation: "play")
        }
        let events = try await analytics.events()
        #expect(try await analytics.summary() == ErrorAnalyticsSummary(events: events, now: clock.now))
    }
}

@Suite("ErrorAnalytics: JSON")
struct ErrorAnalyticsJSONTests {
    private func populated() async -> ErrorAnalytics {
        let analytics = ErrorAnalytics(now: ErrorAnalyticsTestClock().function)
        let timeout = await analytics.record(PlaybackError(.connectionTimeout), operation: "playStation", userAction: "play")
        await analytics.record(PlaybackError(.connectionTimeout), operation: "playStation")
        let missing = await analytics.record(PlaybackError(.fileNotFound), operation: "openFile")
        await analytics.recordResolution(timeout.id, .automaticRetry)
        await analytics.recordResolution(missing.id, .manualRetry)
        return analytics
    }

    @Test func theSummaryEncodesWithExactlyTheSeedKeys() async throws {
        let analytics = await populated()
        let data = try ErrorAnalytics.makeEncoder().encode(try await analytics.summary())
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == [
            "totalErrors", "errorsLast24Hours", "errorsLast7Days", "retryableErrorsPercentage",
            "topErrorTypes", "topErrorOperations", "resolutionStats", "successRate",
        ])
        let types = try #require(object["topErrorTypes"] as? [[String: Any]])
        #expect(types.allSatisfy { Set($0.keys) == ["type", "count"] })
        #expect(types.first?["type"] as? String == "Network.timeout")
        #expect((types.first?["count"] as? NSNumber)?.intValue == 2)
        let operations = try #require(object["topErrorOperations"] as? [[String: Any]])
        #expect(operations.allSatisfy { Set($0.keys) == ["operation", "errorCount"] })
        let stats = try #require(object["resolutionStats"] as? [String: [String: Any]])
        #expect(Set(stats.keys) == ["Network.timeout", "Resource.fileNotFound"])
        #expect(stats.values.allSatisfy { Set($0.keys) == ["retry", "manual", "unresolved"] })
        #expect((stats["Network.timeout"]?["retry"] as? NSNumber)?.intValue == 1)
        #expect((object["totalErrors"] as? NSNumber)?.intValue == 3)
        let rate = try #require((object["retryableErrorsPercentage"] as? NSNumber)?.doubleValue)
        #expect(abs(rate - 2.0 / 3.0) < 1e-12)

        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains("\n  \""), "pretty printed")
        let errorsIndex = try #require(text.range(of: "\"errorsLast24Hours\""))
        let totalIndex = try #require(text.range(of: "\"totalErrors\""))
        #expect(errorsIndex.lowerBound < totalIndex.lowerBound, "sorted keys")
    }

    @Test func summaryDecodesBackToTheSameValue() async throws {
        let analytics = await populated()
        let decoded = try ErrorAnalytics.makeDecoder().decode(ErrorAnalyticsSummary.self, from: try ErrorAnalytics.makeEncoder().encode(try await analytics.summary()))
        #expect(decoded == (try await analytics.summary()))
    }

    @Test func seedExampleDecodes() throws {
        // A hand-written summary in the documented JSON shape must stay readable.
        let seed = """
            {"totalErrors": 47, "errorsLast24Hours": 12, "errorsLast7Days": 47, "retryableErrorsPercentage": 0.68,
             "topErrorTypes": [{"type": "Network.timeout", "count": 15}],
             "topErrorOperations": [{"operation": "addToFavorites", "errorCount": 20}],
             "resolutionStats": {"Network.timeout": {"retry": 12, "manual": 3, "unresolved": 0}},
             "successRate": 0.9}
            """
        let summary = try JSONDecoder().decode(ErrorAnalyticsSummary.self, from: Data(seed.utf8))
        #expect(summary.totalErrors == 47 && summary.retryableErrorsPercentage == 0.68)
        #expect(summary.resolutionStats["Network.timeout"] == .init(retry: 12, manual: 3, unresolved: 0))
    }

    @Test func exportRoundTripsWithISO8601Dates() async throws {
        let analytics = await populated()
        let data = try await analytics.exportJSON()
        let restored = try ErrorAnalytics.decodeExport(data)
        let original = try await analytics.events()
        #expect(restored == original)
        #expect(restored.count == 3)
        #expect(restored.map(\.resolution) == [.automaticRetry, .unresolved, .manualRetry])

        let array = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(Set(array[0].keys) == ["id", "timestamp", "errorType", "operation", "userAction", "isRetryable", "resolution"])
        #expect(array[1]["userAction"] == nil, "absent, not free text")
        #expect(array[0]["timestamp"] as? String == "2025-06-15T15:06:40Z")
        #expect(array[0]["resolution"] as? String == "automaticRetry")
    }

    @Test func decodingRevalidatesTamperedFiles() throws {
        let tampered = """
            [{"id": "7B1A3C9E-0D55-4C1B-9A3E-2F4B5C6D7E8F", "timestamp": "2025-06-15T15:06:40Z",
              "errorType": "Network.timeout: https://alice:s3cret@radio.example.com/live",
              "operation": "/home/alice/Music/Secret Song.mp3", "userAction": "Canary Title Ω",
              "isRetryable": true, "resolution": "manualRetry"}]
            """
        let events = try ErrorAnalytics.decodeExport(Data(tampered.utf8))
        #expect(events.count == 1)
        #expect(events[0].errorType == "other")
        #expect(events[0].operation == .other)
        #expect(events[0].userAction == .other)
        #expect(events[0].resolution == .manualRetry)
    }
}

@Suite("ErrorAnalytics: concurrency")
struct ErrorAnalyticsConcurrencyTests {
    @Test func concurrentRecordsAllLand() async throws {
        let analytics = ErrorAnalytics(now: ErrorAnalyticsTestClock().function)
        let codes = PlaybackError.Code.allCases
        let ids = await withTaskGroup(of: UUID.self, returning: Set<UUID>.self) { group in
            for index in 0..<1_000 {
                group.addTask {
                    let event = await analytics.record(PlaybackError(codes[index % codes.count]), operation: AnalyticsIdentifier("load\(index % 7)"))
                    if index.isMultiple(of: 3) { await analytics.recordResolution(event.id, .automaticRetry) }
                    return event.id
                }
            }
            var ids = Set<UUID>()
            for await id in group { ids.insert(id) }
            return ids
        }
        #expect(ids.count == 1_000)
        let summary = try await analytics.summary(topCount: 100)
        #expect(summary.totalErrors == 1_000)
        let byOperation: Int = summary.topErrorOperations.map(\.errorCount).reduce(0, +)
        let byType: Int = summary.topErrorTypes.map(\.count).reduce(0, +)
        let successRate: Double = 334.0 / 1_000.0
        #expect(byOperation == 1_000)
        #expect(byType == 1_000)
        #expect(summary.successRate == successRate)
        #expect(await analytics.storeFailureCount == 0)
    }
}
