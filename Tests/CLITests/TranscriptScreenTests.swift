import Foundation
import TestProcesses
import Testing

/// The transcript pane in a real terminal (tmux): `t` opens it on Now Playing, the line spoken is
/// marked and moves with the voice, the arrows choose a line and Enter plays from it.
@Suite("Transcript on Now Playing in a terminal", .serialized, .blocking)
struct TranscriptScreenTests {
    @Test func thePaneFollowsTheVoiceAndEnterPlaysFromTheChosenLine() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 60)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cues = (0..<12).map { n in
            let start = String(format: "00:%02d.000", n * 5), end = String(format: "00:%02d.500", n * 5 + 4)
            return "\(start) --> \(end)\n<v Host>Line \(n) of the tone."
        }
        try ("WEBVTT\n\n" + cues.joined(separator: "\n\n") + "\n").write(
            to: file.deletingPathExtension().appendingPathExtension("vtt"), atomically: true, encoding: .utf8)
        let terminal = try TmuxSession.nowPlaying(file, data: dir.appendingPathComponent("data"))
        #expect(try terminal.waitFor(timeout: 20) { $0.contains("● Playing") }.matched)
        try terminal.send("t")
        let open = try terminal.waitFor(timeout: 10) { $0.contains("Transcript") && $0.contains("▶ 0:00  Host: Line 0 of the tone.") }
        #expect(open.matched, "screen:\n\(open.screen)")
        // The voice moves on: so does the mark.
        let followed = try terminal.waitFor(timeout: 15) { $0.contains("▶ 0:05  Host: Line 1 of the tone.") }
        #expect(followed.matched, "screen:\n\(followed.screen)")
        // Seven lines down from the line spoken (line 1, or 2 if the voice moved on meanwhile), then Enter.
        for _ in 0..<7 { try terminal.send("Down") }
        try terminal.send("Enter")
        let jumped = try terminal.waitFor(timeout: 15) { screen in
            screen.contains("▶ 0:40  Host: Line 8 of the tone.") || screen.contains("▶ 0:45  Host: Line 9 of the tone.")
        }
        #expect(jumped.matched, "screen:\n\(jumped.screen)")
        try terminal.send("t")
        let closed = try terminal.waitFor(timeout: 10) { !$0.contains("Transcript") }
        #expect(closed.matched, "screen:\n\(closed.screen)")
        try terminal.send("q")
        #expect(try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }.matched)
    }
}
