import Foundation
import TestProcesses
import Testing

/// `y` on Now Playing in a real terminal (tmux with `set-clipboard on`): the share line is shown
/// and reaches the clipboard through OSC 52, as tmux keeps it in its paste buffer.
@Suite("Share key in a terminal", .serialized, .blocking)
struct ShareKeyTests {
    @Test func yShowsTheLineAndCopiesItWithOSC52() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 30)
        defer { try? FileManager.default.removeItem(at: dir) }
        let terminal = try TmuxSession.nowPlaying(file, data: dir.appendingPathComponent("data"))
        try terminal.setServerOption("set-clipboard", "on")
        #expect(try terminal.waitFor(timeout: 20) { $0.contains("● Playing") }.matched)
        try terminal.send("y")
        let title = file.deletingPathExtension().lastPathComponent
        let shown = try terminal.waitFor(timeout: 10) { $0.contains("Copied: \(title)") }
        #expect(shown.matched, "screen:\n\(shown.screen)")
        #expect(!shown.screen.contains(dir.path), "a path of this machine was shared:\n\(shown.screen)")
        #expect(eventuallyBlocking(timeout: 10, every: .milliseconds(100)) { (try? terminal.pasteBuffer()) == title })
        try terminal.send("q")
        #expect(try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }.matched)
    }
}
