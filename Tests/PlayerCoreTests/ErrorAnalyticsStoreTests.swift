import Foundation
import Testing

@testable import PlayerCore

private let day: TimeInterval = 24 * 3600

private func event(_ code: PlaybackError.Code = .offline, at seconds: TimeInterval, _ operation: AnalyticsIdentifier = "op")
    -> ErrorEvent
{
    ErrorEvent(PlaybackError(code), operation: operation, timestamp: Date(timeIntervalSince1970: 1_750_000_000 + seconds))
}

/// A store whose every call fails, like a SQLite store on a full disk.
private struct FailingStore: ErrorEventStore {
    struct Failure: Error {}
    func append(_ event: ErrorEvent) async throws { throw Failure() }
    func updateResolution(of id: ErrorEvent.ID, to resolution: ErrorEvent.Resolution) async throws -> Bool { throw Failure() }
    func events(since start: Date?) async throws -> [ErrorEvent] { throw Failure() }
    func count() async throws -> Int { throw Failure() }
    func prune(olderThan cutoff: Date, keepingAtMost maxEvents: Int) async throws -> Int { throw Failure() }
}

@Suite("ErrorAnalytics: store and retention")
struct ErrorAnalyticsStoreTests {
    @Test func capacityBoundDropsTheOldest() async throws {
        let store: any ErrorEventStore = InMemoryErrorEventStore(capacity: 3)
        let events = (0..<5).map { event(at: TimeInterval($0)) }
        for item in events { try await store.append(item) }
        #expect(try await store.count() == 3)
        #expect(try await store.allEvents() == Array(events[2...]))
    }

    @Test func defaultCapacityIsTenThousand() async throws {
        let store = InMemoryErrorEventStore()
        #expect(store.capacity == 10_000)
        for index in 0..<10_005 { await store.append(event(at: TimeInterval(index))) }
        #expect(await store.count() == 10_000)
        #expect(await store.events(since: nil).first?.timestamp == Date(timeIntervalSince1970: 1_750_000_005))
    }

    @Test func outOfOrderEventsStaySortedAndOldestByTimeIsDropped() async throws {
        let store: any ErrorEventStore = InMemoryErrorEventStore(capacity: 3)
        let late = event(at: 30), early = event(at: 10), middle = event(at: 20), tie = event(.stalled, at: 20)
        for item in [late, early, middle, tie] { try await store.append(item) }
        #expect(try await store.allEvents() == [middle, tie, late])
        #expect(try await store.events(since: Date(timeIntervalSince1970: 1_750_000_021)) == [late])
        #expect(try await store.events(since: Date(timeIntervalSince1970: 1_750_000_020)) == [middle, tie, late])
        #expect(try await store.events(since: Date(timeIntervalSince1970: 1_750_000_031)).isEmpty)
    }

    @Test func pruneRemovesByAgeThenByCount() async throws {
        let store: any ErrorEventStore = InMemoryErrorEventStore()
        for offset in [-100.0, -91, -89, -10, -1] { try await store.append(event(at: offset * day)) }
        let cutoff = Date(timeIntervalSince1970: 1_750_000_000 - 90 * day)
        #expect(try await store.prune(olderThan: cutoff, keepingAtMost: 10) == 2)
        #expect(try await store.count() == 3)
        #expect(try await store.prune(olderThan: cutoff, keepingAtMost: 1) == 2)
        let left = try await store.allEvents()
        #expect(left.map(\.timestamp) == [Date(timeIntervalSince1970: 1_750_000_000 - day)])
        #expect(try await store.prune(olderThan: cutoff, keepingAtMost: 1) == 0)
        #expect(try await store.prune(olderThan: .distantFuture, keepingAtMost: 10) == 1)
        #expect(try await store.count() == 0)
    }

    @Test func updateResolutionFindsTheEvent() async throws {
        let store: any ErrorEventStore = InMemoryErrorEventStore()
        let first = event(at: 0), second = event(at: 1)
        try await store.append(first)
        try await store.append(second)
        #expect(try await store.updateResolution(of: first.id, to: .manualRetry))
        #expect(try await store.updateResolution(of: UUID(), to: .manualRetry) == false)
        #expect(try await store.allEvents().map(\.resolution) == [.manualRetry, .unresolved])
    }

    @Test func analyticsPrunesEventsOlderThanNinetyDays() async throws {
        let clock = ErrorAnalyticsTestClock()
        let start = clock.now
        let analytics = ErrorAnalytics(now: clock.function)
        #expect(analytics.retention == .standard)
        #expect(analytics.retention.maxAge == 90 * day)
        let old = await analytics.record(PlaybackError(.offline), operation: "old")
        clock.set(start.addingTimeInterval(80 * day))
        await analytics.record(PlaybackError(.offline), operation: "recent")
        #expect(try await analytics.summary().totalErrors == 2)

        clock.set(start.addingTimeInterval(90 * day + 1))
        let events = try await analytics.events()
        #expect(events.map(\.operation) == ["recent"])
        #expect(await analytics.recordResolution(old.id, .manualRetry) == false, "pruned events cannot be resolved")
        #expect(try await analytics.summary().totalErrors == 1)
    }

    @Test func analyticsRetentionCapsTheCount() async throws {
        let clock = ErrorAnalyticsTestClock()
        let analytics = ErrorAnalytics(now: clock.function, retention: ErrorRetentionPolicy(maxEvents: 3, maxAge: 7 * day))
        var recorded: [ErrorEvent] = []
        for index in 0..<5 {
            clock.advance(by: 60)
            recorded.append(await analytics.record(PlaybackError(.stalled), operation: AnalyticsIdentifier("op\(index)")))
        }
        #expect(try await analytics.events() == Array(recorded[2...]))
        clock.advance(by: 7 * day - 60)
        #expect(try await analytics.events() == Array(recorded[3...]), "the first kept one is now older than 7 days")
    }

    @Test func storeFailuresNeverThrowIntoRecordingButReadsDo() async throws {
        let analytics = ErrorAnalytics(store: FailingStore(), now: ErrorAnalyticsTestClock().function)
        let event = await analytics.record(PlaybackError(.offline), operation: "play")
        #expect(event.errorType == "Network.offline")
        #expect(await analytics.recordResolution(event.id, .automaticRetry) == false)
        #expect(await analytics.storeFailureCount == 3, "append, prune, resolution")
        await #expect(throws: FailingStore.Failure.self) { try await analytics.summary() }
        await #expect(throws: FailingStore.Failure.self) { try await analytics.exportJSON() }
    }
}

@Suite("ErrorAnalytics: identifiers")
struct ErrorAnalyticsIdentifierTests {
    @Test(arguments: ["playStation", "add_song_to_favorites", "Network.timeout", "a", "x-1.2_3", String(repeating: "a", count: 64)])
    func validIdentifiersAreKept(_ candidate: String) {
        #expect(AnalyticsIdentifier(candidate).rawValue == candidate)
        #expect(AnalyticsIdentifier.isValid(candidate))
    }

    @Test(arguments: [
        "", "1play", "_play", ".play", "play station", "play/station", "https://radio.example.com/live",
        "/home/alice/Music/Secret Song.mp3", "Canary Title Ω", "café", "play\nstation", "play:1",
        "play\u{202E}evil", "title?token=CANARY123", String(repeating: "a", count: 65), "ａbc",
    ])
    func everythingElseBecomesOther(_ candidate: String) {
        let identifier = AnalyticsIdentifier(candidate)
        #expect(identifier == .other)
        #expect(identifier.isOther)
        #expect(identifier.rawValue == "other")
        #expect(AnalyticsIdentifier(rawValue: candidate) == .other)
    }

    @Test func literalsAndDecodingAreValidatedToo() throws {
        let literal: AnalyticsIdentifier = "Secret Song"
        #expect(literal == .other)
        let decoded = try JSONDecoder().decode([AnalyticsIdentifier].self, from: Data(#"["ok_name", "not ok"]"#.utf8))
        #expect(decoded.map(\.rawValue) == ["ok_name", "other"])
        #expect(String(data: try JSONEncoder().encode(AnalyticsIdentifier("playStation")), encoding: .utf8) == #""playStation""#)
        #expect("\(AnalyticsIdentifier("playStation"))" == "playStation")
    }

    @Test func everyErrorTypeIsAValidIdentifier() {
        for code in PlaybackError.Code.allCases {
            let type = PlaybackError(code).errorType
            #expect(AnalyticsIdentifier.isValid(type), "\(type)")
        }
    }
}
