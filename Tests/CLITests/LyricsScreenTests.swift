import Foundation
import TestProcesses
import Testing

/// A song's lyrics on Now Playing in a real terminal (tmux): the `.lrc` beside the file is found,
/// `t` opens the pane titled "Lyrics", and the line sung is marked and moves with the song.
@Suite("Lyrics on Now Playing in a terminal", .serialized, .blocking)
struct LyricsScreenTests {
    @Test func theLrcBesideTheSongIsShownAndFollowed() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 60)
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = (0..<12).map { n in String(format: "[00:%02d.00]Sung line %d", n * 5, n) }
        try ("\u{FEFF}[ar:Tone]\r\n" + lines.joined(separator: "\r\n") + "\r\n").write(
            to: file.deletingPathExtension().appendingPathExtension("lrc"), atomically: true, encoding: .utf8)
        let terminal = try TmuxSession.nowPlaying(file, data: dir.appendingPathComponent("data"))
        #expect(try terminal.waitFor(timeout: 20) { $0.contains("● Playing") }.matched)
        try terminal.send("t")
        let open = try terminal.waitFor(timeout: 10) { $0.contains("Lyrics") && $0.contains("▶ 0:00  Sung line 0") }
        #expect(open.matched, "screen:\n\(open.screen)")
        #expect(!open.screen.contains("Transcript"))
        let followed = try terminal.waitFor(timeout: 15) { $0.contains("▶ 0:05  Sung line 1") }
        #expect(followed.matched, "screen:\n\(followed.screen)")
        try terminal.send("q")
        #expect(try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }.matched)
    }
}
