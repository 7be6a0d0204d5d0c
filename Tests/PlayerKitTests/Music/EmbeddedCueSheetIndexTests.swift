import Foundation
import Library
import LibraryKit
import Logging
import PlayerCore
import TestProcesses
import Testing

/// FLAC files with an embedded cue sheet (made by ffmpeg and metaflac, `EmbeddedCueFixture`)
/// indexed by `MusicIndexer` with FFmpeg's tag reader: the tracks are rows of their own beside
/// the FLAC's, a `.cue` beside that names the FLAC takes over (and gives the tracks back when it
/// goes), and a hostile sheet leaves the FLAC one whole song, or a typed failure, never a crash.
@Suite("Embedded cue sheets in the music index", .serialized)
struct EmbeddedCueSheetIndexTests {
    static func indexed(_ prepare: (URL) throws -> Void) async throws -> (LibraryContext, MusicIndexer, MusicIndexerTests.Folder, MusicIndexerTests.Folder) {
        let music = try MusicIndexerTests.Folder()
        try FileManager.default.createDirectory(at: music.url.appendingPathComponent("Album"), withIntermediateDirectories: true)
        try prepare(music.url.appendingPathComponent("Album"))
        let (library, data) = try await MusicIndexerTests.context()
        return (library, library.musicIndexer(directory: music.url, logger: Logger(label: "test")), music, data)
    }

    static let trackPaths = ["Album/image.flac/track0001", "Album/image.flac/track0002", "Album/image.flac/track0003"]

    @Test(arguments: [EmbeddedCueFixture.Form.comment, .block])
    func aFLACsSheetIsItsTracksAndACueBesideTakesOver(form: EmbeddedCueFixture.Form) async throws {
        let (library, indexer, music, data) = try await Self.indexed { album in
            try EmbeddedCueFixture.write(to: album.appendingPathComponent("image.flac"), title: "Whole", form: form)
        }
        _ = (music, data)
        let first = try indexer.update()
        #expect(first.read == 1 && first.failures == 0)
        let songs = try library.store.musicSongs()
        #expect(songs.map(\.path) == Self.trackPaths, "the FLAC is left out of listings, as an image is")
        #expect(try library.store.musicSong(path: "Album/image.flac")?.tags[.title] == "Whole", "but answers by its own path")
        #expect(songs.map(\.tags.part) == [
            SongPart(image: "Album/image.flac", startFrame: 0, endFrame: 150), SongPart(image: "Album/image.flac", startFrame: 150, endFrame: 375),
            SongPart(image: "Album/image.flac", startFrame: 375, endFrame: nil),
        ])
        #expect(songs.map { $0.tags[.track] } == ["01", "02", "03"])
        if form == .comment {
            #expect(songs.map { $0.tags[.title] } == ["Low", "Middle", "High"])
            #expect(songs.map { $0.tags[.artist] } == ["Image Artist", "Guest", "Image Artist"])
        }
        #expect(abs((songs[2].tags.audio.duration ?? 0) - 2.5) < 0.01)

        // A `.cue` beside naming the FLAC: its tracks, once; the embedded ones go.
        let cue = indexer.directory.appendingPathComponent("Album/image.cue")
        try Data(EmbeddedCueFixture.sheet.replacingOccurrences(of: "Three Tones", with: "Beside").utf8).write(to: cue)
        _ = try indexer.update()
        let beside = try library.store.musicSongs()
        #expect(beside.map(\.path) == ["Album/image.cue/track0001", "Album/image.cue/track0002", "Album/image.cue/track0003"])
        #expect(beside.allSatisfy { $0.tags[.album] == "Beside" })

        // The `.cue` gone: the embedded tracks are back.
        try FileManager.default.removeItem(at: cue)
        _ = try indexer.update()
        #expect(try library.store.musicSongs().map(\.path) == Self.trackPaths)

        // An unchanged FLAC is not read again.
        let unchanged = try indexer.update()
        #expect(unchanged.read == 0 && unchanged.removed == 0)
    }

    /// What the index holds for a FLAC whose embedded sheet is hostile: the FLAC as one song.
    static func whole(_ flac: (URL) throws -> Void) async throws -> [MusicSongRecord] {
        let (library, indexer, music, data) = try await Self.indexed { album in try flac(album.appendingPathComponent("image.flac")) }
        _ = (music, data)
        let summary = try indexer.update()
        #expect(summary.read == 1)
        return try library.store.musicSongs()
    }

    @Test func aGarbageCommentLeavesTheFLACOneSong() async throws {
        let songs = try await Self.whole { url in
            try EmbeddedCueFixture.write(to: url, title: "Whole", form: .comment, sheet: "\u{1}\u{2} not a sheet ### TRACK\nINDEX 99:99:99")
        }
        #expect(songs.map(\.path) == ["Album/image.flac"] && songs[0].failure == nil && songs[0].tags[.title] == "Whole")
    }

    @Test func aGarbageCommentBesideAGoodBlockGivesTheBlocksTracks() async throws {
        let (library, indexer, music, data) = try await Self.indexed { album in
            let url = album.appendingPathComponent("image.flac")
            try EmbeddedCueFixture.write(to: url, title: "Whole", form: .block)
            try EmbeddedCueFixture.metaflac(["--set-tag=CUESHEET=not a sheet", url.path])
        }
        _ = (music, data)
        #expect(try indexer.update().failures == 0)
        #expect(try library.store.musicSongs().map(\.path) == Self.trackPaths)
    }

    @Test func aSheetWithATrackPastTheEndLeavesTheFLACOneSong() async throws {
        let past = EmbeddedCueFixture.sheet.replacingOccurrences(of: "INDEX 01 00:05:00", with: "INDEX 01 00:40:00")
        let songs = try await Self.whole { url in try EmbeddedCueFixture.write(to: url, title: "Whole", form: .comment, sheet: past) }
        #expect(songs.map(\.path) == ["Album/image.flac"] && songs[0].failure == nil)
    }

    /// Blocks metaflac would not write, put in by hand: no track at all, and a track past the end
    /// of the audio. FFmpeg 5.1 refuses to open the first (a typed failure of the file, as any
    /// file it cannot read); the second is the file as one song.
    @Test func hostileBlocksEndAsOneSongOrATypedFailure() async throws {
        let image = try EmbeddedCueFixture.image(title: "Whole")
        var empty = [UInt8](repeating: 0, count: 396)
        empty[395] = 0
        let none = try await Self.whole { url in try EmbeddedCueFixture.inserting(block: 5, body: Data(empty), into: image).write(to: url) }
        #expect(none.map(\.path) == ["Album/image.flac"])
        #expect(none[0].failure == nil || none[0].failure == .unsupportedFormat || none[0].failure == .malformedData, "\(String(describing: none[0].failure))")

        func track(_ offset: UInt64, _ number: UInt8, points: Int = 1) -> [UInt8] {
            var bytes = (0..<8).reversed().map { UInt8(offset >> (8 * UInt64($0)) & 0xFF) } + [number] + [UInt8](repeating: 0, count: 26)
            bytes.append(UInt8(points))
            for _ in 0..<points { bytes += [UInt8](repeating: 0, count: 8) + [1, 0, 0, 0] }
            return bytes
        }
        var late = [UInt8](repeating: 0, count: 395) + [3]
        late += track(0, 1) + track(44_100 * 60, 2) + track(44_100 * 61, 170, points: 0)
        let past = try await Self.whole { url in try EmbeddedCueFixture.inserting(block: 5, body: Data(late), into: image).write(to: url) }
        #expect(past.map(\.path) == ["Album/image.flac"] && past[0].failure == nil, "\(past.map(\.path))")
    }
}
