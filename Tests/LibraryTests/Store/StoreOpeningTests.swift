import Foundation
import GRDB
import PlayerCore
import Testing

@testable import Library

@Suite("Library store: opening, migration, recovery")
struct StoreOpeningTests {
    @Test func createsDirectoryAndAnEmptyLibrary() throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.url.appendingPathComponent("nested/tonearm", isDirectory: true)
        let store = try LibraryStore.open(directory: directory)
        #expect(store.recovery == nil)
        #expect(store.databaseURL.path == directory.appendingPathComponent("library.sqlite").path)
        #expect(FileManager.default.fileExists(atPath: store.databaseURL.path))
        #expect(try store.podcasts().isEmpty)
        #expect(try store.stations().isEmpty)
        #expect(try store.sessions().isEmpty)
        let (migrations, journalMode) = try store.pool.read { db in
            (try LibrarySchema.migrator.appliedMigrations(db), try String.fetchOne(db, sql: "PRAGMA journal_mode"))
        }
        #expect(migrations == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22"])
        #expect(journalMode == "wal")
    }

    @Test func migratesAVersionOneLibraryKeepingItsData() async throws {
        let temporary = try TemporaryDirectory()
        do {
            let pool = try DatabasePool(path: temporary.databaseURL.path)
            try LibrarySchema.migrator.migrate(pool, upTo: "v1")
            try await pool.write { db in
                try db.execute(sql: """
                    INSERT INTO station (id, name, nameKey, url, genre, addedAt) VALUES (1, 'Jazz FM', 'jazz fm', 'https://jazz.example/live', 'Jazz', 1.0);
                    INSERT INTO podcast (id, title, feedURL, addedAt) VALUES (7, 'Old Show', 'https://old.example/feed', 2.0);
                    INSERT INTO episode (id, podcastId, guid, title, feedOrder) VALUES (70, 7, 'g1', 'Pilot', 0);
                    INSERT INTO playbackPosition (episodeId, position, played, updatedAt) VALUES (70, 42.5, 0, 3.0);
                    INSERT INTO session (name, nameKey, path, json, stageCount, addedAt) VALUES ('Calm', 'calm', '/s/calm.json', '{"stages":[{}]}', 1, 4.0);
                    INSERT INTO setting (key, value) VALUES ('output', 'pulse');
                    """)
            }
            #expect(try await pool.read { db in try db.tableExists("errorEvent") } == false)
            try pool.close()
        }
        let store = try LibraryStore.open(directory: temporary.url)
        #expect(store.recovery == nil)
        #expect(try store.station(named: "jazz fm").url.absoluteString == "https://jazz.example/live")
        // v6: a station from before the directory came from nowhere in it.
        #expect(try store.station(named: "jazz fm").directoryID == nil)
        let found = try store.addStation(name: "Found FM", url: URL(string: "https://found.example/live")!, directoryID: "abcd-1234-ef")
        #expect(try store.station(named: "found fm").directoryID == "abcd-1234-ef" && found.directoryID == "abcd-1234-ef")
        #expect(try store.podcast(matching: "7").title == "Old Show")
        #expect(try store.resumePosition(episodeID: 70) == 42.5)
        // v11: an episode from before transcripts names none.
        #expect(try store.episode(id: 70).transcript == nil)
        #expect(try store.session(named: "Calm").stageCount == 1)
        #expect(try store.setting("output") == "pulse")
        // v2's additions are there and usable.
        #expect(try store.podcast(matching: "Old Show").validators == .none)
        try store.markChecked(podcastID: 7, validators: FeedValidators(etag: "\"v2\"", lastModified: nil))
        #expect(try store.podcast(matching: "7").etag == "\"v2\"")
        let event = ErrorEvent(PlaybackError(.offline), operation: "playEpisode", timestamp: Date(timeIntervalSince1970: 100))
        try await store.errorEvents.append(event)
        #expect(try await store.errorEvents.allEvents() == [event])
        #expect(try await store.pool.read { db in try LibrarySchema.migrator.appliedMigrations(db) } == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22"])
    }

    @Test func randomBytesAreMovedAsideAndANewLibraryStarts() throws {
        let temporary = try TemporaryDirectory()
        var generator = SeededRandom(seed: 5)
        let garbage = Data((0..<8_192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let walGarbage = Data((0..<1_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try garbage.write(to: temporary.databaseURL)
        try walGarbage.write(to: URL(fileURLWithPath: temporary.databaseURL.path + "-wal"))
        let clock = StoreTestClock(Date(timeIntervalSince1970: 1_750_000_000))  // 2025-06-15 15:06:40 UTC

        let store = try LibraryStore.open(directory: temporary.url, now: clock.function)

        let recovery = try #require(store.recovery)
        #expect(recovery.error.code == .libraryCorrupt)
        #expect(recovery.movedAsideTo.lastPathComponent == "library.sqlite.corrupt-20250615T150640Z")
        #expect(try Data(contentsOf: recovery.movedAsideTo) == garbage)
        #expect(try Data(contentsOf: URL(fileURLWithPath: recovery.movedAsideTo.path + "-wal")) == walGarbage)
        _ = try store.addStation(name: "After", url: URL(string: "https://after.example/live")!)
        #expect(try store.stations().map(\.name) == ["After"])
    }

    @Test func aTruncatedLibraryIsMovedAsideAndASecondDamageGetsItsOwnName() throws {
        let temporary = try TemporaryDirectory()
        do {
            let store = try LibraryStore.open(directory: temporary.url)
            _ = try store.addPodcast(
                feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(episodes: (0..<2_000).map { StoreFeedFixtures.episode($0) }),
                validators: .none)
        }
        let full = try Data(contentsOf: temporary.databaseURL)
        #expect(full.count > 100_000)
        let truncated = full.prefix(full.count / 2)
        try truncated.write(to: temporary.databaseURL)
        let clock = StoreTestClock()

        let first: LibraryRecovery
        do {
            let store = try LibraryStore.open(directory: temporary.url, now: clock.function)
            first = try #require(store.recovery)
            #expect(first.error.code == .libraryCorrupt)
            #expect(try Data(contentsOf: first.movedAsideTo) == truncated)
            #expect(try store.podcasts().isEmpty)
            _ = try store.addStation(name: "Works", url: URL(string: "https://works.example/live")!)
        }

        // Damaged again within the same second: a new name, the first kept.
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temporary.databaseURL.path + suffix) }
        try truncated.write(to: temporary.databaseURL)
        let again = try LibraryStore.open(directory: temporary.url, now: clock.function)
        let second = try #require(again.recovery)
        #expect(second.movedAsideTo != first.movedAsideTo)
        #expect(second.movedAsideTo.lastPathComponent.hasPrefix(first.movedAsideTo.lastPathComponent))
        #expect(FileManager.default.fileExists(atPath: first.movedAsideTo.path))
        #expect(try Data(contentsOf: second.movedAsideTo) == truncated)
    }

    @Test func aDirectoryUnderARegularFileIsUnavailable() throws {
        let temporary = try TemporaryDirectory()
        let file = temporary.url.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        let error = playbackError { () throws(PlaybackError) in
            try LibraryStore.open(directory: file.appendingPathComponent("tonearm", isDirectory: true))
        }
        #expect(error?.code == .libraryUnavailable)
        #expect(error?.underlying?.contains(temporary.url.path) == false)
    }

    @Test func aDatabasePathThatIsADirectoryIsUnavailable() throws {
        let temporary = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: temporary.databaseURL, withIntermediateDirectories: true)
        let error = playbackError { () throws(PlaybackError) in try LibraryStore.open(directory: temporary.url) }
        #expect(error?.code == .libraryUnavailable)
        // Not mistaken for damage: nothing was moved aside.
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: temporary.databaseURL.path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test func positionsSurviveReopening() throws {
        let temporary = try TemporaryDirectory()
        let episodeID: Int64
        do {
            let store = try LibraryStore.open(directory: temporary.url)
            let podcast = try store.addPodcast(
                feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(episodes: [StoreFeedFixtures.episode(1)]), validators: .none)
            episodeID = try #require(try store.episodes(podcastID: podcast.id).first?.id)
            try store.savePosition(episodeID: episodeID, position: 754.25, duration: 1_790)
        }
        let reopened = try LibraryStore.open(directory: temporary.url)
        #expect(try reopened.resumePosition(episodeID: episodeID) == 754.25)
        #expect(try reopened.episode(id: episodeID).duration == 1_790)
    }

    /// What a `kill -9` leaves: the files as they are while the process still has the database
    /// open (nothing checkpointed or closed). A committed position must be in them.
    @Test func aCommittedPositionIsOnDiskWhileTheStoreIsStillOpen() throws {
        let temporary = try TemporaryDirectory()
        let crashed = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let podcast = try store.addPodcast(
            feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(episodes: [StoreFeedFixtures.episode(1)]), validators: .none)
        let episodeID = try #require(try store.episodes(podcastID: podcast.id).first?.id)
        try store.savePosition(episodeID: episodeID, position: 321, duration: nil)
        for suffix in ["", "-wal", "-shm"] {
            let source = URL(fileURLWithPath: temporary.databaseURL.path + suffix)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            try FileManager.default.copyItem(at: source, to: URL(fileURLWithPath: crashed.databaseURL.path + suffix))
        }
        let recovered = try LibraryStore.open(directory: crashed.url)
        #expect(recovered.recovery == nil)
        #expect(try recovered.resumePosition(episodeID: episodeID) == 321)
        withExtendedLifetime(store) {}
    }
}
