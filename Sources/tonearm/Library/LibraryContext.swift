import Foundation
import Library
import PlayerCore
import PlayerKit
import Streaming

/// The library as one command uses it: the store under `$XDG_DATA_HOME/tonearm`, the persistent
/// error analytics on it, and the podcast service. Opening it tells the user when a damaged
/// database was kept aside (and records that as an error event), so nothing is lost silently.
struct LibraryContext {
    let store: LibraryStore
    let analytics: ErrorAnalytics
    /// Retry counts per operation, added to the library's totals as each operation ends.
    let retryStatistics: RetryStatistics
    /// This command run's network client: the process's host breakers, this run's retry budget,
    /// and the persistent retry statistics.
    let network: NetworkClient
    let podcasts: PodcastLibrary

    /// Settings keys for the analytics retention (defaults: 10,000 events, 90 days).
    static let maxEventsSetting = "analytics.maxEvents"
    static let maxAgeDaysSetting = "analytics.maxAgeDays"

    /// Opens the library or exits with its typed error.
    static func open() async -> LibraryContext {
        do throws(PlaybackError) {
            return try await make()
        } catch {
            ErrorOutput.fail(error, detail: error.code == .libraryUnavailable ? LibraryPaths.dataDirectory().path : nil)
        }
    }

    /// Opens the library, or nil (with a warning) so playback can go on without it.
    static func openForPlayback() async -> LibraryContext? {
        do throws(PlaybackError) {
            return try await make()
        } catch {
            let text = error.text(in: .current)
            FileHandle.standardError.write(Data("tonearm: \(text.title): \(text.message) Errors are not recorded this time.\n".utf8))
            return nil
        }
    }

    /// Runs one library operation; a failure is recorded in the error analytics like every other
    /// error, printed with its explanation, and ends the command (status 1).
    @discardableResult
    func attempt<T>(_ operation: AnalyticsIdentifier, _ body: () async throws(PlaybackError) -> T) async -> T {
        do {
            return try await body()
        } catch {
            await analytics.record(error, operation: operation)
            ErrorOutput.fail(error)
        }
    }

    private static func make() async throws(PlaybackError) -> LibraryContext {
        let store = try LibraryStore.open()
        let analytics = ErrorAnalytics(store: store.errorEvents, retention: try retention(store))
        if let recovery = store.recovery {
            let text = recovery.error.text(in: .current)
            FileHandle.standardError.write(
                Data("tonearm: \(text.title): \(text.message)\n\(text.recoverySuggestion)\n(kept at \(recovery.movedAsideTo.path))\n".utf8))
            await analytics.record(recovery.error, operation: "openLibrary")
        }
        let statistics = RetryStatistics(store: store.retryStatistics)
        let network = NetworkClient(statistics: statistics, retryBudget: RetryBudget(), logger: CLILog.logger)
        return LibraryContext(
            store: store, analytics: analytics, retryStatistics: statistics, network: network,
            podcasts: PodcastLibrary(store: store, network: network, analytics: analytics, logger: CLILog.logger))
    }

    private static func retention(_ store: LibraryStore) throws(PlaybackError) -> ErrorRetentionPolicy {
        var policy = ErrorRetentionPolicy.standard
        if let value = try store.setting(maxEventsSetting).flatMap(Int.init), value > 0 { policy.maxEvents = value }
        if let value = try store.setting(maxAgeDaysSetting).flatMap(Double.init), value > 0 { policy.maxAge = value * 86_400 }
        return policy
    }
}

/// Prints values as the `--json` output of list commands: one array, keys sorted, ISO-8601 dates.
enum JSONOutput {
    static func print<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            let data = try encoder.encode(value)
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        } catch {
            ErrorOutput.fail(PlaybackError(.unknown, underlying: "encoding JSON: \(error)"))
        }
    }
}

/// A plain-text table for list commands: columns padded to their widest cell.
enum TextTable {
    static func render(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
