import Foundation
import PlayerCore
import Testing

@testable import Library

/// The music index: rows written by an update, read by folder and by search (Cyrillic and
/// accented Latin alike), failures kept as rows, `added` kept when a file is read again.
@Suite("Music index store")
struct MusicStoreTests {
    static func tags(_ title: String, artist: String, album: String, track: String? = nil, seconds: Double = 100) -> SongTags {
        var values: [SongTag: [String]] = [.title: [title], .artist: [artist], .album: [album]]
        if let track { values[.track] = [track] }
        return SongTags(values: values, audio: AudioProperties(duration: seconds, sampleRate: 44_100, channels: 2, codec: "mp3"))
    }

    static func reading(_ path: String, _ tags: SongTags, modified: Double = 1, size: Int64 = 10) -> MusicFileReading {
        MusicFileReading(path: path, stamp: MusicFileStamp(modified: modified, size: size), result: .success(tags))
    }

    @Test func rowsAreReadBackByFolderWithTheirTagsAndStamps() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        try store.saveMusic([
            Self.reading("Aurora Trio/Night Ferry/01 Harbour.mp3", Self.tags("Harbour", artist: "Aurora Trio", album: "Night Ferry", track: "1/2")),
            Self.reading("Aurora Trio/Night Ferry/02 Lanterns.mp3", Self.tags("Lanterns", artist: "Aurora Trio", album: "Night Ferry", track: "2/2")),
            Self.reading("Кино/Группа крови/01.flac", Self.tags("Группа крови", artist: "Кино", album: "Группа крови")),
            Self.reading("loose.ogg", SongTags()),
        ])
        #expect(try store.musicSongs().map(\.path) == [
            "Aurora Trio/Night Ferry/01 Harbour.mp3", "Aurora Trio/Night Ferry/02 Lanterns.mp3", "loose.ogg", "Кино/Группа крови/01.flac",
        ])
        let album = try store.musicSongs(inDirectory: "Aurora Trio/Night Ferry")
        #expect(album.map(\.displayTitle) == ["Harbour", "Lanterns"])
        #expect(album.first?.tags.trackNumber == 1 && album.first?.tags[.track] == "1/2")
        #expect(album.first?.stamp == MusicFileStamp(modified: 1, size: 10))
        #expect(try store.musicSongs(inDirectory: "").map(\.displayTitle) == ["loose"])
        #expect(try store.musicSongs(under: "Aurora Trio").count == 2)
        // "Aurora Trio/Night" is not a folder name's prefix match of "Aurora Trio/Night Ferry".
        #expect(try store.musicSongs(under: "Aurora Trio/Night").isEmpty)
        #expect(try store.musicSongs(under: "Кино").map(\.path) == ["Кино/Группа крови/01.flac"], "a folder below a Cyrillic one")
        #expect(try store.musicDirectories() == ["Aurora Trio", "Aurora Trio/Night Ferry", "Кино", "Кино/Группа крови"])
        #expect(try store.musicSong(path: "loose.ogg")?.tags.isEmpty == true)
    }

    @Test func searchFindsEveryScriptByWordPrefixesAndFollowsChanges() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        try store.saveMusic([
            Self.reading("a/1.mp3", Self.tags("Harbour Lights", artist: "Aurora Trio", album: "Night Ferry")),
            Self.reading("b/1.flac", Self.tags("Группа крови", artist: "Кино", album: "Группа крови")),
            Self.reading("c/1.ogg", Self.tags("Café Noir", artist: "Élodie", album: "Rue")),
        ])
        #expect(try store.searchMusic("harb").map(\.path) == ["a/1.mp3"])
        #expect(try store.searchMusic("кров").map(\.path) == ["b/1.flac"])
        #expect(try store.searchMusic("cafe elodie").map(\.path) == ["c/1.ogg"])
        #expect(try store.searchMusic("\"NEAR\" *").isEmpty)
        // A file read again with other tags is found by its new words only.
        try store.saveMusic([Self.reading("a/1.mp3", Self.tags("Open Sea", artist: "Aurora Trio", album: "Night Ferry"), modified: 2)])
        #expect(try store.searchMusic("harbour").isEmpty)
        #expect(try store.searchMusic("open sea").map(\.path) == ["a/1.mp3"])
        try store.saveMusic([], removing: ["a/1.mp3"])
        #expect(try store.searchMusic("aurora").isEmpty)
    }

    @Test func aFileReadAgainKeepsWhenItWasAddedAndAFailureIsARow() throws {
        let temporary = try TemporaryDirectory()
        let clock = StoreTestClock()
        let store = try LibraryStore.open(directory: temporary.url, now: { clock.now })
        try store.saveMusic([Self.reading("x.mp3", Self.tags("X", artist: "A", album: "B"))])
        let first = try #require(try store.musicSong(path: "x.mp3"))
        clock.advance(by: 3600)
        try store.saveMusic([
            MusicFileReading(path: "x.mp3", stamp: MusicFileStamp(modified: 5, size: 11), result: .failure(PlaybackError(.corruptData)))
        ])
        let again = try #require(try store.musicSong(path: "x.mp3"))
        #expect(again.added == first.added)
        #expect(again.failure == .corruptData && again.tags.isEmpty)
        #expect(again.stamp == MusicFileStamp(modified: 5, size: 11))
        #expect(try store.musicStamps() == ["x.mp3": MusicFileStamp(modified: 5, size: 11)])
        let totals = try store.musicTotals()
        #expect(totals.songs == 0 && totals.failures == 1 && totals.lastUpdate == nil)
        #expect(try store.musicUpdateStamp() == nil, "no update finished yet")
        try store.markMusicUpdated()
        #expect(try store.musicTotals().lastUpdate == clock.now)
        #expect(try store.musicUpdateStamp() == clock.now.timeIntervalSince1970, "the stamp readers of the songs compare")
    }

    @Test func totalsCountSongsArtistsAlbumsAndPlaytime() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        try store.saveMusic([
            Self.reading("1.mp3", Self.tags("1", artist: "A", album: "X", seconds: 60)),
            Self.reading("2.mp3", Self.tags("2", artist: "A", album: "Y", seconds: 30.5)),
            Self.reading("3.mp3", Self.tags("3", artist: "B", album: "Y", seconds: 10)),
        ])
        let totals = try store.musicTotals()
        #expect(totals.songs == 3 && totals.artists == 2 && totals.albums == 2 && totals.playtime == 100.5)
    }
}
