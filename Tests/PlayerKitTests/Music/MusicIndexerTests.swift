import Foundation
import Library
import LibraryKit
import Logging
import PlayerCore
import TestProcesses
import Testing

/// `MusicIndexer` over real files made by ffmpeg and read by FFmpeg's tag reader: a first update
/// reads everything, a later one only what changed, a deleted file leaves the index, a corrupt one
/// is a failure row, a symbolic-link loop and a name that is not UTF-8 end nothing.
@Suite("Music index updates", .serialized)
struct MusicIndexerTests {
    final class Folder {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-music-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// A one-second MP3 tagged with `title` and `artist` at `path` under `root`.
    static func song(_ root: URL, _ path: String, title: String, artist: String, album: String = "Night Ferry") throws {
        let data = try FFmpegFixture.make(
            ["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-metadata", "title=\(title)", "-metadata", "artist=\(artist)",
             "-metadata", "album=\(album)", "-c:a", "libmp3lame", "-b:a", "64k"],
            fileName: "song.mp3"
        ).get()
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    static func context() async throws -> (LibraryContext, Folder) {
        let data = try Folder()
        return (try await LibraryContext.open(directory: data.url, logger: Logger(label: "test")), data)
    }

    @Test func laterUpdatesReadOnlyWhatChangedAndDropWhatIsGone() async throws {
        let music = try Folder()
        try Self.song(music.url, "Aurora Trio/Night Ferry/01 Harbour.mp3", title: "Harbour", artist: "Aurora Trio")
        try Self.song(music.url, "Aurora Trio/Night Ferry/02 Lanterns.mp3", title: "Lanterns", artist: "Aurora Trio")
        try Self.song(music.url, "Кино/Звезда.mp3", title: "Звезда по имени Солнце", artist: "Кино", album: "Звезда")
        try Data("not audio at all".utf8).write(to: music.url.appendingPathComponent("broken.mp3"))
        try Data("cover".utf8).write(to: music.url.appendingPathComponent("Aurora Trio/cover.jpg"))
        let (library, data) = try await Self.context()
        _ = data
        let indexer = library.musicIndexer(directory: music.url, logger: Logger(label: "test"))

        var seen: [MusicIndexer.Progress] = []
        let first = try indexer.update(progress: { seen.append($0) })
        #expect(first.read == 4 && first.failures == 1 && first.removed == 0 && first.unchanged == 0)
        #expect(seen.first == MusicIndexer.Progress(read: 0, total: 4) && seen.last == MusicIndexer.Progress(read: 4, total: 4))
        let songs = try library.store.musicSongs()
        #expect(songs.map(\.path) == ["Aurora Trio/Night Ferry/01 Harbour.mp3", "Aurora Trio/Night Ferry/02 Lanterns.mp3", "broken.mp3", "Кино/Звезда.mp3"])
        #expect(songs[0].tags[.title] == "Harbour" && songs[0].tags[.artist] == "Aurora Trio" && songs[0].tags[.album] == "Night Ferry")
        #expect((songs[0].tags.audio.duration ?? 0) > 0.9)
        #expect(songs[2].failure != nil && songs[2].tags.isEmpty)
        #expect(songs[3].tags[.title] == "Звезда по имени Солнце")
        #expect(try library.store.searchMusic("солнц").map(\.path) == ["Кино/Звезда.mp3"])

        // Nothing changed: nothing is read.
        let unchanged = try indexer.update()
        #expect(unchanged.read == 0 && unchanged.unchanged == 4 && !unchanged.changedIndex)

        // One file replaced, one deleted: exactly those.
        try FileManager.default.removeItem(at: music.url.appendingPathComponent("Aurora Trio/Night Ferry/02 Lanterns.mp3"))
        try Self.song(music.url, "Кино/Звезда.mp3", title: "Кукушка", artist: "Кино", album: "Чёрный альбом")
        let later = try indexer.update()
        #expect(later.read == 1 && later.removed == 1 && later.unchanged == 2 && later.changedIndex)
        #expect(try library.store.musicSong(path: "Кино/Звезда.mp3")?.tags[.title] == "Кукушка")
        #expect(try library.store.musicSong(path: "Aurora Trio/Night Ferry/02 Lanterns.mp3") == nil)

        // A rescan reads every file again.
        #expect(try indexer.update(rereadAll: true).read == 3)
        #expect(try library.store.musicTotals().lastUpdate != nil)
    }

    @Test func aLinkLoopAndANameThatIsNotUTF8EndNothing() async throws {
        let music = try Folder()
        try Self.song(music.url, "A/song.mp3", title: "Song", artist: "A")
        try Self.song(music.url, "Locked/kept.mp3", title: "Kept", artist: "L")
        // A link from inside to the top: walked once, not forever.
        try FileManager.default.createSymbolicLink(atPath: music.url.appendingPathComponent("A/loop").path, withDestinationPath: music.url.path)
        // A name with a Latin-1 byte, which is not UTF-8.
        var bytes = Array(music.url.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".mp3".utf8)
        bytes.append(0)
        let fd = bytes.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        #expect(fd >= 0)
        close(fd)
        let (library, data) = try await Self.context()
        _ = data
        let indexer = library.musicIndexer(directory: music.url, logger: Logger(label: "test"))
        let first = try indexer.update()
        #expect(first.undecodableNames == 1)
        #expect(try library.store.musicSongs().map(\.path) == ["A/song.mp3", "Locked/kept.mp3"])

    }

    @Test func aMissingMusicDirectoryIsATypedError() async throws {
        let (library, data) = try await Self.context()
        _ = data
        let indexer = library.musicIndexer(directory: URL(fileURLWithPath: "/nonexistent/tonearm-music"), logger: Logger(label: "test"))
        #expect(throws: PlaybackError.self) { try indexer.update() }
        do { _ = try indexer.update() } catch { #expect(error.code == .fileNotFound) }
    }
}
