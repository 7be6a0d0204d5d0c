import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit
import Streaming

/// The library as one program run uses it: the store under `$XDG_DATA_HOME/tonearm`, the
/// persistent error analytics on it, the network client that counts retries into it, and the
/// podcast service. A damaged database kept aside when opening is recorded as an error event and
/// named in `recovery`, so the front end can tell the listener: nothing is lost silently.
package struct LibraryContext: Sendable {
    package let store: LibraryStore
    package let analytics: ErrorAnalytics
    /// Retry counts per operation, added to the library's totals as each operation ends.
    package let retryStatistics: RetryStatistics
    /// This command run's network client: the process's host breakers, this run's retry budget,
    /// and the persistent retry statistics.
    package let network: NetworkClient
    package let podcasts: PodcastLibrary
    /// Episodes kept on disk, beside the library.
    package let downloads: EpisodeDownloads
    /// What the library learns about its stations' starts; front ends feed it updates and pass
    /// their requests through it.
    package let stations: StationReachability
    /// One background sync at a time (`syncIfSetUp`).
    package let backgroundSync = BackgroundSyncGate()

    /// Settings keys for the analytics retention (defaults: 10,000 events, 90 days).
    package static let maxEventsSetting = "analytics.maxEvents"
    package static let maxAgeDaysSetting = "analytics.maxAgeDays"

    /// What opening found: a damaged database it kept aside (already recorded as an error event),
    /// for the front end to tell the listener.
    package var recovery: LibraryRecovery? { store.recovery }

    /// Opens the library in `directory` (the XDG data directory by default).
    /// - Parameter learnedRetries: when feeds, downloads and stations that never answer are tried
    ///   once or left out of automatic work (the configuration's `[retries]`).
    package static func open(
        directory: URL? = nil, learnedRetries: LearnedRetryRule = .standard, logger: Logger
    ) async throws(PlaybackError) -> LibraryContext {
        let store = try LibraryStore.open(directory: directory ?? LibraryPaths.dataDirectory())
        let analytics = ErrorAnalytics(store: store.errorEvents, retention: try retention(store))
        if let recovery = store.recovery { await analytics.record(recovery.error, operation: "openLibrary") }
        let statistics = RetryStatistics(store: store.retryStatistics)
        let network = NetworkClient(statistics: statistics, retryBudget: RetryBudget(), logger: logger)
        var feeds = PodcastLibrary.Options()
        feeds.learnedRetries = learnedRetries
        var downloads = EpisodeDownloads(store: store, network: network, analytics: analytics, logger: logger)
        downloads.learnedRetries = learnedRetries
        return LibraryContext(
            store: store, analytics: analytics, retryStatistics: statistics, network: network,
            podcasts: PodcastLibrary(store: store, network: network, analytics: analytics, options: feeds, logger: logger),
            downloads: downloads, stations: StationReachability(store: store, rule: learnedRetries, logger: logger))
    }

    private static func retention(_ store: LibraryStore) throws(PlaybackError) -> ErrorRetentionPolicy {
        var policy = ErrorRetentionPolicy.standard
        if let value = try store.setting(maxEventsSetting).flatMap(Int.init), value > 0 { policy.maxEvents = value }
        if let value = try store.setting(maxAgeDaysSetting).flatMap(Double.init), value > 0 { policy.maxAge = value * 86_400 }
        return policy
    }
}
