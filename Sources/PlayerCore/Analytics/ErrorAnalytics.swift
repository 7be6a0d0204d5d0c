import Foundation

/// Privacy-preserving, local-only error analytics: records typed errors with the
/// operation and user action they interrupted, links each to its resolution, and summarises the
/// patterns (most frequent types and operations, retryable share, success rate).
///
/// Why it is built this way:
/// - Privacy by construction. `record` takes a `PlaybackError`, not a message, and stores only its
///   `errorType` and `isRetryable`; operation and user action are `AnalyticsIdentifier`s that turn
///   anything that is not a short identifier into `other`. The underlying error text (which may
///   hold URLs, paths, titles) is never read. Nothing leaves the machine; export is an explicit call.
/// - Pluggable store. PlayerCore stays pure and uses `InMemoryErrorEventStore` by default; the
///   Library layer passes a SQLite store conforming to `ErrorEventStore`.
/// - Analytics must never break playback: `record` and `recordResolution` do not throw. A store
///   failure is counted in `storeFailureCount` rather than silently dropped or propagated into the
///   operation that failed in the first place. Reads (`summary`, export) do throw, since a caller
///   asking for numbers must know when they are missing.
/// - Retention (default 10,000 events or 90 days) is applied after every write and before every
///   read, with the injected clock, so tests never depend on the wall clock.
public actor ErrorAnalytics {
    private let store: any ErrorEventStore
    private let now: @Sendable () -> Date
    /// How much history is kept.
    public nonisolated let retention: ErrorRetentionPolicy
    /// How many store calls failed (writes, resolution updates, pruning).
    public private(set) var storeFailureCount = 0

    public init(
        store: any ErrorEventStore = InMemoryErrorEventStore(),
        now: @escaping @Sendable () -> Date = Date.init,
        retention: ErrorRetentionPolicy = .standard
    ) {
        self.store = store
        self.now = now
        self.retention = retention
    }

    /// Records `error` as an unresolved event and returns it; its `id` links a later resolution.
    /// - Parameters:
    ///   - operation: what Tonearm was doing (`playStation`); anything but an identifier is `other`.
    ///   - userAction: what the user asked for, if the error followed a user action.
    @discardableResult
    public func record(
        _ error: PlaybackError,
        operation: AnalyticsIdentifier,
        userAction: AnalyticsIdentifier? = nil
    ) async -> ErrorEvent {
        let event = ErrorEvent(error, operation: operation, userAction: userAction, timestamp: now())
        do {
            try await store.append(event)
        } catch {
            storeFailureCount += 1
        }
        await applyRetention()
        return event
    }

    /// Marks the event `id` as resolved (by `.automaticRetry` or `.manualRetry`) or back to
    /// `.unresolved`. Returns false when the event is unknown (never recorded, or pruned) or the
    /// store failed. Only the exact event is resolved, not every event of its type, so the
    /// success rate is not skewed by unrelated errors of the same type.
    @discardableResult
    public func recordResolution(_ id: ErrorEvent.ID, _ resolution: ErrorEvent.Resolution) async -> Bool {
        do {
            return try await store.updateResolution(of: id, to: resolution)
        } catch {
            storeFailureCount += 1
            return false
        }
    }

    /// The retained events, oldest first.
    public func events() async throws -> [ErrorEvent] {
        await applyRetention()
        return try await store.allEvents()
    }

    /// The summary of the retained events at the injected `now`.
    /// The store computes it (a database store with aggregate queries), after retention.
    public func summary(topCount: Int = 5) async throws -> ErrorAnalyticsSummary {
        await applyRetention()
        return try await store.summary(now: now(), topCount: topCount)
    }

    /// The retained events as a JSON array, oldest first (ISO-8601 dates, sorted keys, pretty
    /// printed). Read it back with `ErrorAnalytics.decodeExport(_:)`.
    public func exportJSON() async throws -> Data {
        try Self.makeEncoder().encode(try await events())
    }

    /// The encoder for every analytics JSON: stable output (sorted keys) that diffs well.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// The decoder matching `makeEncoder()`.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Reads an `exportJSON()` file back; every field is re-validated (see `ErrorEvent`).
    public static func decodeExport(_ data: Data) throws -> [ErrorEvent] {
        try makeDecoder().decode([ErrorEvent].self, from: data)
    }

    private func applyRetention() async {
        do {
            _ = try await store.prune(olderThan: retention.cutoff(now: now()), keepingAtMost: retention.maxEvents)
        } catch {
            storeFailureCount += 1
        }
    }
}
