import Foundation
import GRDB
import PlayerCore
import Testing

@testable import Library

/// Retry statistics persist in the library: totals add up across runs (and processes), names that
/// are not identifiers never reach the file, and a library written before the table existed gets
/// it by migration with its data kept.
@Suite("Library store: persistent retry statistics")
struct SQLiteRetryStatisticsStoreTests {
    @Test func totalsAddUpAcrossRunsAndReopen() async throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let first = RetryStatistics(store: store.retryStatistics)
        await first.record(operation: "podcastFeed", attempts: 3, outcome: .success)
        await first.record(operation: "podcastFeed", attempts: 3, outcome: .failure)
        await first.record(operation: "artwork", attempts: 1, outcome: .success)
        // The next command run, with a store of its own on the same file.
        let second = RetryStatistics(store: try LibraryStore.open(directory: temporary.url).retryStatistics)
        await second.record(operation: "podcastFeed", attempts: 2, outcome: .success)
        await second.record(operation: "http://feeds.example/private?token=CANARY", attempts: 1, outcome: .failure)
        #expect(await first.storeFailureCount == 0)
        #expect(await second.storeFailureCount == 0)

        let summary = try await RetryStatistics(store: store.retryStatistics).persistedSummary()
        #expect(summary.operations.map(\.operation) == ["artwork", "other", "podcastFeed"])
        let feed = try #require(summary.operations.last)
        #expect(feed.runs == 3 && feed.attempts == 8 && feed.retriedRuns == 3 && feed.successesAfterRetry == 2)
        #expect(feed.retrySuccessRate == 2.0 / 3.0)
        #expect(summary.retrySuccessRate == 2.0 / 3.0)

        let bytes = try Data(contentsOf: store.databaseURL) + ((try? Data(contentsOf: URL(fileURLWithPath: store.databaseURL.path + "-wal"))) ?? Data())
        #expect(bytes.range(of: Data("CANARY".utf8)) == nil)
    }

    @Test func aVersionTwoLibraryGetsTheTableByMigration() async throws {
        let temporary = try TemporaryDirectory()
        do {
            let pool = try DatabasePool(path: temporary.databaseURL.path)
            try LibrarySchema.migrator.migrate(pool, upTo: "v2")
            try await pool.write { db in
                try db.execute(sql: "INSERT INTO setting (key, value) VALUES ('output', 'pulse')")
            }
            #expect(try await pool.read { db in try db.tableExists("retryStatistic") } == false)
            try pool.close()
        }
        let store = try LibraryStore.open(directory: temporary.url)
        #expect(try store.setting("output") == "pulse")
        try await store.retryStatistics.add(.run(attempts: 2, outcome: .success), to: "podcastFeed")
        #expect(try await store.retryStatistics.totals() == ["podcastFeed": .run(attempts: 2, outcome: .success)])
    }
}
