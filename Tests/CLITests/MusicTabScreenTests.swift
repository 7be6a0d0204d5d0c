import Foundation
import TestProcesses
import Testing

/// The library's Music tab on a real terminal (tmux): a folder of songs ffmpeg tags here, read
/// into the index with `R`, browsed artist → album → song, and Enter plays the song.
@Suite("Music tab on the terminal", .serialized)
struct MusicTabScreenTests {
    @Test func rIndexesThenArtistAlbumSongAndEnterPlaysIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-music-screen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let music = root.appendingPathComponent("Music")
        for (track, title) in [(1, "Harbour"), (2, "Lanterns")] {
            let tags = ["title=\(title)", "artist=Aurora Trio", "album=Night Ferry", "date=2019", "track=\(track)"]
            let arguments = ["-f", "lavfi", "-i", "sine=frequency=330:duration=30"] + tags.flatMap { ["-metadata", $0] } + ["-c:a", "libmp3lame"]
            let data = try FFmpegFixture.make(arguments, fileName: "song.mp3").get()
            let url = music.appendingPathComponent("Aurora Trio/Night Ferry/0\(track) \(title).mp3")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        let terminal = try TmuxSession(
            [CLITests.binary.path, "library", "--output", "null", "--music-directory", music.path],
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "XDG_DATA_HOME": root.path, "XDG_CONFIG_HOME": root.path])

        #expect(try terminal.waitFor(timeout: 20) { $0.contains("No stations yet") }.matched)
        // Music is the last tab: the left arrow from Stations.
        try terminal.send("Left")
        let empty = try terminal.waitFor(timeout: 10) { $0.contains("No music in the index yet") && $0.contains("[R] Update the index") }
        #expect(empty.matched, "screen:\n\(empty.screen)")
        try terminal.send("R")
        let artists = try terminal.waitFor(timeout: 30) { $0.contains("▸ Aurora Trio") }
        #expect(artists.matched, "screen:\n\(artists.screen)")
        try terminal.send("Enter")
        let albums = try terminal.waitFor(timeout: 10) { $0.contains("◂ Aurora Trio") && $0.contains("▸ Night Ferry") && $0.contains("2019") }
        #expect(albums.matched, "screen:\n\(albums.screen)")
        try terminal.send("Enter")
        let songs = try terminal.waitFor(timeout: 10) { $0.contains("◂ Aurora Trio › Night Ferry") && $0.contains("▸  1  Harbour") && $0.contains("2  Lanterns") }
        #expect(songs.matched, "screen:\n\(songs.screen)")
        try terminal.send("Down")
        try terminal.send("Enter")
        let playing = try terminal.waitFor(timeout: 30) { $0.contains("Now Playing") && $0.contains("Lanterns") && $0.contains("● Playing") }
        #expect(playing.matched, "screen:\n\(playing.screen)")
        // Back: the songs with the mini player below; again: the albums.
        try terminal.send("Escape")
        let back = try terminal.waitFor(timeout: 10) { $0.contains("▸  2  Lanterns") && $0.contains("Lanterns") && $0.contains("Playing") }
        #expect(back.matched, "screen:\n\(back.screen)")
        try terminal.send("BSpace")
        #expect(try terminal.waitFor(timeout: 10) { $0.contains("▸ Night Ferry") && !$0.contains("Harbour") }.matched)
        try terminal.send("q")
        #expect(try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }.matched)
    }
}
