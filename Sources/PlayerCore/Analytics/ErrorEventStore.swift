import Foundation

/// Where error events live. Pluggable because PlayerCore is pure (Foundation only, no I/O): it
/// ships the bounded in-memory store below, and the Library layer adds a SQLite (GRDB) store that
/// conforms to this same protocol. The protocol is deliberately small (five calls, all expressible
/// as one SQL statement each) so a persistent store is easy to write and to reason about.
///
/// Methods are `async throws` because a persistent store does I/O and can fail; the in-memory
/// store neither suspends for long nor throws. A store has no clock of its own: retention by age
/// is applied by `prune`, which `ErrorAnalytics` calls with its (injectable) clock.
public protocol ErrorEventStore: Sendable {
    /// Adds an event. A bounded store may drop its oldest events to make room.
    func append(_ event: ErrorEvent) async throws

    /// Sets the resolution of the event with `id`. Returns false when no such event is stored
    /// (it may have been pruned).
    func updateResolution(of id: ErrorEvent.ID, to resolution: ErrorEvent.Resolution) async throws -> Bool

    /// Events with `timestamp >= start` (all of them when `start` is nil), oldest first.
    func events(since start: Date?) async throws -> [ErrorEvent]

    /// How many events are stored.
    func count() async throws -> Int

    /// Removes events older than `cutoff`, then the oldest ones beyond `maxEvents`.
    /// Returns how many were removed.
    func prune(olderThan cutoff: Date, keepingAtMost maxEvents: Int) async throws -> Int

    /// `ErrorAnalyticsSummary(events: allEvents(), now: now, topCount: topCount)`. A requirement so
    /// a database store can answer with aggregate queries instead of reading every event (100,000
    /// events must summarise in well under a second); the result must be the same either way.
    func summary(now: Date, topCount: Int) async throws -> ErrorAnalyticsSummary
}

extension ErrorEventStore {
    /// Every stored event, oldest first.
    public func allEvents() async throws -> [ErrorEvent] {
        try await events(since: nil)
    }

    /// The in-memory computation over every stored event.
    public func summary(now: Date, topCount: Int) async throws -> ErrorAnalyticsSummary {
        ErrorAnalyticsSummary(events: try await allEvents(), now: now, topCount: topCount)
    }
}

/// How much error history Tonearm keeps: by default 10,000 events or 90 days,
/// whichever is smaller. Local history is useful for patterns; older history is only risk.
public struct ErrorRetentionPolicy: Sendable, Hashable, Codable {
    /// At most this many events (the oldest go first). Values below 0 count as 0.
    public var maxEvents: Int
    /// Events older than this many seconds are removed.
    public var maxAge: TimeInterval

    public init(maxEvents: Int = 10_000, maxAge: TimeInterval = 90 * 24 * 60 * 60) {
        self.maxEvents = max(0, maxEvents)
        self.maxAge = maxAge
    }

    /// 10,000 events, 90 days.
    public static let standard = ErrorRetentionPolicy()

    /// The oldest timestamp still kept at `now`.
    public func cutoff(now: Date) -> Date {
        now.addingTimeInterval(-maxAge)
    }
}

/// The default store: memory only, bounded so a crash loop cannot grow it without limit.
///
/// Events are kept sorted by timestamp (ties in arrival order), so "oldest" means oldest by time
/// even when events arrive out of order, dropping the oldest is a cut at the front, and date
/// queries are a binary search. Age retention happens in `prune` (see `ErrorEventStore`).
public actor InMemoryErrorEventStore: ErrorEventStore {
    /// The most events held at once; appending beyond it drops the oldest.
    public nonisolated let capacity: Int
    private var storage: [ErrorEvent] = []

    /// - Parameter capacity: defaults to the standard retention (10,000); below 1 counts as 1.
    public init(capacity: Int = ErrorRetentionPolicy.standard.maxEvents) {
        self.capacity = max(1, capacity)
    }

    public func append(_ event: ErrorEvent) {
        // Almost always at the end: the upper bound keeps arrival order among equal timestamps.
        let index = firstIndex { $0.timestamp > event.timestamp }
        storage.insert(event, at: index)
        if storage.count > capacity {
            storage.removeFirst(storage.count - capacity)
        }
    }

    public func updateResolution(of id: ErrorEvent.ID, to resolution: ErrorEvent.Resolution) -> Bool {
        // Resolutions follow their errors closely, so search from the newest end.
        guard let index = storage.lastIndex(where: { $0.id == id }) else { return false }
        storage[index] = storage[index].resolved(resolution)
        return true
    }

    public func events(since start: Date?) -> [ErrorEvent] {
        guard let start else { return storage }
        return Array(storage[firstIndex { $0.timestamp >= start }...])
    }

    public func count() -> Int {
        storage.count
    }

    public func prune(olderThan cutoff: Date, keepingAtMost maxEvents: Int) -> Int {
        let before = storage.count
        let firstKept = firstIndex { $0.timestamp >= cutoff }
        let overCapacity = max(0, (before - firstKept) - max(0, maxEvents))
        storage.removeFirst(firstKept + overCapacity)
        return before - storage.count
    }

    /// The first index whose event satisfies `predicate`, which must be false-then-true over the
    /// sorted storage (binary search); `storage.count` when none does.
    private func firstIndex(where predicate: (ErrorEvent) -> Bool) -> Int {
        var low = 0
        var high = storage.count
        while low < high {
            let mid = (low + high) / 2
            if predicate(storage[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
