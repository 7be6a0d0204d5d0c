import Foundation
import Library
import LibraryKit
import Logging
import PlayerCore
import TestProcesses
import Testing

/// A cue sheet in the music directory indexed by `MusicIndexer` over a real image (ffmpeg) read by
/// FFmpeg's tag reader: its tracks are songs with their tags and parts, the image is hidden from
/// listings, an edited sheet replaces its tracks, a broken one is a failure row, a deleted one
/// takes its tracks along.
@Suite("Cue sheets in the music index", .serialized)
struct CueSheetIndexTests {
    static func sheet(tracks: Int, file: String = "image.flac") -> String {
        var text = "PERFORMER \"Tone Band\"\r\nTITLE \"Three Tones\"\r\nREM DATE 2020\r\nFILE \"\(file)\" WAVE\r\n"
        for n in 1...tracks {
            text += "  TRACK 0\(n) AUDIO\r\n    TITLE \"Part \(n)\"\r\n    INDEX 01 00:0\(2 * (n - 1)):00\r\n"
        }
        return text
    }

    @Test func aSheetsTracksAreSongsAndFollowTheSheet() async throws {
        let music = try MusicIndexerTests.Folder()
        let image = try FFmpegFixture.make(["-f", "lavfi", "-i", "sine=frequency=440:duration=7:sample_rate=44100", "-c:a", "flac"], fileName: "i.flac").get()
        try FileManager.default.createDirectory(at: music.url.appendingPathComponent("Album"), withIntermediateDirectories: true)
        try image.write(to: music.url.appendingPathComponent("Album/image.flac"))
        let cue = music.url.appendingPathComponent("Album/image.cue")
        try Data(Self.sheet(tracks: 3).utf8).write(to: cue)
        let (library, data) = try await MusicIndexerTests.context()
        _ = data
        let indexer = library.musicIndexer(directory: music.url, logger: Logger(label: "test"))

        let first = try indexer.update()
        #expect(first.read == 2 && first.failures == 0, "the image and the sheet: \(first)")
        let songs = try library.store.musicSongs()
        #expect(songs.map(\.path) == ["Album/image.cue/track0001", "Album/image.cue/track0002", "Album/image.cue/track0003"], "the image is hidden")
        #expect(try library.store.musicSong(path: "Album/image.flac") != nil, "but still there by its own path")
        #expect(songs[1].tags[.title] == "Part 2" && songs[1].tags[.album] == "Three Tones" && songs[1].tags[.albumArtist] == "Tone Band")
        #expect(songs[1].tags[.track] == "02" && songs[1].tags[.date] == "2020")
        #expect(songs[1].tags.part == SongPart(image: "Album/image.flac", startFrame: 150, endFrame: 300))
        #expect(songs[1].tags.audio.duration == 2 && songs[1].tags.audio.sampleRate == 44_100)
        #expect(abs((songs[2].tags.audio.duration ?? 0) - 3) < 0.01, "the last runs to the image's end")
        #expect(try library.store.searchMusic("part").count == 3)
        #expect(MusicAlbums.albums(songs).map(\.title) == ["Three Tones"])

        // Unchanged: nothing read again, nothing dropped.
        let unchanged = try indexer.update()
        #expect(unchanged.read == 0 && unchanged.removed == 0 && unchanged.unchanged == 2)
        #expect(try library.store.musicSongs().count == 3)

        // The sheet edited to two tracks: the third row goes.
        try Data(Self.sheet(tracks: 2).utf8).write(to: cue)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(10)], ofItemAtPath: cue.path)
        let edited = try indexer.update()
        #expect(edited.read == 1)
        #expect(try library.store.musicSongs().map(\.path) == ["Album/image.cue/track0001", "Album/image.cue/track0002"])
        #expect(try library.store.musicSongs()[1].tags.part?.endFrame == nil)

        // A sheet naming a file outside its folder is a failure of the sheet, not a read.
        try Data(Self.sheet(tracks: 1, file: "../../etc/passwd").utf8).write(to: cue)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(20)], ofItemAtPath: cue.path)
        let broken = try indexer.update()
        #expect(broken.failures == 1)
        let rows = try library.store.musicSongs()
        #expect(rows.map(\.path) == ["Album/image.cue", "Album/image.flac"] && rows[0].failure == .malformedData)

        // Deleted: its rows leave with it.
        try FileManager.default.removeItem(at: cue)
        let gone = try indexer.update()
        #expect(gone.removed == 1)
        #expect(try library.store.musicSongs().map(\.path) == ["Album/image.flac"])
    }
}
