import Foundation
import PlayerCore
import Synchronization
import TestProcesses
import Testing

/// The terminal UI end to end: the real binary in a real terminal (tmux), driven by keys, read
/// from the screen.
@Suite("tonearm on a terminal", .serialized, .blocking)
struct TerminalScreenTests {
    static func tone() throws -> Data {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 30)
        defer { try? FileManager.default.removeItem(at: dir) }
        return try Data(contentsOf: file)
    }

    @Test func aFailingEpisodeShowsTheErrorViewAndRetryPlaysItOnceTheFaultIsGone() throws {
        let audio = try Self.tone()
        let healed = Mutex(false)
        // Down (each connection closed before any byte) until the test removes the fault.
        let server = try TestHTTPServer { request in
            healed.withLock { $0 } ? .file(audio, for: request, contentType: "audio/flac") : TestHTTPServer.Response(status: 200, headers: [], body: [.cut])
        }
        defer { server.stop() }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-tui-\(UUID().uuidString)")
        let terminal = try TmuxSession(
            [CLITests.binary.path, "play", "--finite", server.url("/episode-42.flac").absoluteString, "--output", "null", "--give-up-after", "2"],
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "XDG_DATA_HOME": home.path])

        let failed = try terminal.waitFor(timeout: 40) { $0.contains("Playback Error") }
        #expect(failed.matched, "screen:\n\(failed.screen)")
        #expect(failed.screen.contains("[r] ↻ Retry Playback"), "screen:\n\(failed.screen)")
        #expect(failed.screen.contains("episode-42"), "the episode is named for context:\n\(failed.screen)")
        // The controls gave way to the error view.
        #expect(!failed.screen.contains("[space]"))

        healed.withLock { $0 = true }
        try terminal.send("r")
        let playing = try terminal.waitFor(timeout: 30) { $0.contains("● Playing") }
        #expect(playing.matched, "screen:\n\(playing.screen)")
        #expect(!playing.screen.contains("Playback Error"), "the error view clears as soon as playback starts")

        try terminal.send("q")
        let ended = try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }
        #expect(ended.matched, "q quits")
    }
}

extension TerminalScreenTests {
    /// Security: hostile ICY titles set through Icecast's admin URL while the
    /// screen shows them. Every byte the program writes to the terminal is captured (tmux
    /// pipe-pane) and none of the injected controls is there; the titles' text is readable.
    @Test func hostileStreamTitlesNeverReachTheTerminal() throws {
        let server = try IcecastServer()
        defer { server.stop() }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-tui-\(UUID().uuidString)")
        let terminal = try TmuxSession(
            [CLITests.binary.path, "play", server.streamURL.absoluteString, "--output", "null"],
            width: 120, height: 40, environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "XDG_DATA_HOME": home.path])
        let bytesFile = home.appendingPathExtension("bytes")
        try terminal.capturingOutput(to: bytesFile)
        #expect(try terminal.waitFor(timeout: 30) { $0.contains("● Playing") }.matched)

        let titles: [(bytes: [UInt8], charset: String, readable: String)] = [
            (Array("Evil\u{1B}[6n\u{1B}]0;pwned\u{07} - Song".utf8), "UTF-8", "Song"),
            (Array("Clip\u{1B}]52;c;cm0gLXJmIC8=\u{07} - Board".utf8), "UTF-8", "Board"),
            ([0x43, 0x31, 0xC2, 0x9D, 0x20, 0x2D, 0x20, 0x54, 0x69, 0x74, 0x6C, 0x65], "UTF-8", "Title"),
            (Array("Bidi \u{202E}gnos\u{202C} - Flip".utf8), "UTF-8", "Flip"),
        ]
        for (bytes, charset, readable) in titles {
            try server.setTitle(bytes: bytes, charset: charset)
            let shown = try terminal.waitFor(timeout: 20) { $0.contains(readable) }
            #expect(shown.matched, "\(readable) never shown:\n\(shown.screen)")
        }
        try terminal.send("q")
        _ = try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }

        let written = try Data(contentsOf: bytesFile)
        #expect(written.count > 1000, "the capture holds the session (\(written.count) bytes)")
        let text = String(decoding: written, as: UTF8.self)
        // No OSC (title, clipboard), no device status request, no DCS, no BEL; ncurses itself
        // sends only CSI and charset sequences. (What is left of a sequence once its controls are
        // gone, such as "]52;c;…", is plain text on the screen.)
        for forbidden in ["\u{1B}]", "\u{1B}[6n", "\u{1B}P", "\u{07}"] {
            #expect(!text.contains(forbidden), "\(forbidden.debugDescription) reached the terminal")
        }
        let scalars = text.unicodeScalars.map(\.value)
        #expect(!scalars.contains { (0x80...0x9F).contains($0) || (0x202A...0x202E).contains($0) || (0x2066...0x2069).contains($0) })
    }
}

extension TerminalScreenTests {
    /// Keys come from `$XDG_CONFIG_HOME/tonearm/config.toml`: several keys for one action, and
    /// a rebound key no longer does its old job.
    @Test func keyBindingsFromTheConfigFile() throws {
        let (dir, tone) = try PlaybackCommandTests.tone(seconds: 30)
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config/tonearm")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[keys]\nquit = \"Q\"\npauseResume = [\"p\", \"space\"]\n".write(
            to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let terminal = try TmuxSession(
            [CLITests.binary.path, "play", tone.path, "--output", "null"],
            environment: [
                "TERM": "xterm-256color", "LANG": "C.UTF-8", "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path,
                "XDG_DATA_HOME": dir.appendingPathComponent("data").path,
            ])
        #expect(try terminal.waitFor(timeout: 20) { $0.contains("● Playing") }.matched)
        try terminal.send("p")
        let paused = try terminal.waitFor(timeout: 10) { $0.contains("● Paused") }
        #expect(paused.matched, "screen:\n\(paused.screen)")
        #expect(paused.screen.contains("Q Quit"), "the hint bar names the configured key:\n\(paused.screen)")
        try terminal.send("q")
        // Keys are handled in order: once the next one (resume) shows, q has been handled.
        try terminal.send("p")
        _ = try terminal.waitFor(timeout: 10) { $0.contains("● Playing") || (try? terminal.paneIsDead()) == true }
        #expect(try !terminal.paneIsDead(), "q is not bound any more")
        try terminal.send("Q")
        #expect(try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }.matched)
    }
}

extension TerminalScreenTests {
    /// `--plain`: sentences a screen reader can speak, "press r" when a retry is possible, and r
    /// (a line on stdin) retries.
    @Test func plainModeAnnouncesTheFailureAndRetriesOnR() throws {
        let audio = try Self.tone()
        let healed = Mutex(false)
        let server = try TestHTTPServer { request in
            healed.withLock { $0 } ? .file(audio, for: request, contentType: "audio/flac") : TestHTTPServer.Response(status: 200, headers: [], body: [.cut])
        }
        defer { server.stop() }
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["play", "--plain", "--finite", server.url("/episode-7.flac").absoluteString, "--output", "null", "--give-up-after", "2"]
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C"
        environment["LC_ALL"] = nil
        environment["XDG_DATA_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-plain-\(UUID().uuidString)").path
        process.environment = environment
        let out = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
        defer { watchdog.cancel() }

        var lines: [String] = []
        var buffer = Data()
        var retried = false
        reading: while true {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                lines.append(line)
                if line == "Retry available: press r.", !retried {
                    retried = true
                    healed.withLock { $0 = true }
                    input.fileHandleForWriting.write(Data("r\n".utf8))
                } else if retried, line.hasPrefix("Playing") {
                    input.fileHandleForWriting.write(Data("stop\n".utf8))
                    try? input.fileHandleForWriting.close()
                    break reading
                }
            }
        }
        process.waitUntilExit()
        let failure = try #require(lines.firstIndex { $0.hasPrefix("Playback Error.") }, "lines: \(lines)")
        #expect(lines[failure].contains("The connection dropped during playback."), "\(lines[failure])")
        #expect(lines[failure].contains("episode-7"), "context named: \(lines[failure])")
        #expect(lines[failure + 1] == "Retry available: press r.")
        #expect(lines.dropFirst(failure).contains { $0.hasPrefix("Playing") }, "lines: \(lines)")
        // Sentences only: no bars, no percentages repeated.
        #expect(lines.allSatisfy { !$0.contains("█") })
    }
}

extension TerminalScreenTests {
    /// `tonearm` alone opens the library: an empty list says how to add a station, a station
    /// added with `a` plays with Enter, Esc goes back with the mini player below, a dead feed is
    /// an error dialog, and Diagnostics counts that error.
    @Test func theLibraryAddsAStationPlaysItAndReportsAFailedFeed() throws {
        let icecast = try IcecastServer()
        defer { icecast.stop() }
        let missing = try TestHTTPServer { _ in .complete(status: 404, contentType: "text/plain", body: Data("no".utf8)) }
        defer { missing.stop() }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-library-\(UUID().uuidString)")
        let terminal = try TmuxSession(
            [CLITests.binary.path, "--output", "null"],
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "XDG_DATA_HOME": home.path, "XDG_CONFIG_HOME": home.path])

        #expect(try terminal.waitFor(timeout: 20) { $0.contains("No stations yet") && $0.contains("[a] Add Station") }.matched)
        try terminal.send("a")
        try terminal.sendText("Night FM \(icecast.streamURL.absoluteString)")
        try terminal.send("Enter")
        #expect(try terminal.waitFor(timeout: 10) { $0.contains("▸ Night FM") }.matched)
        try terminal.send("Enter")
        let playing = try terminal.waitFor(timeout: 30) { $0.contains("Now Playing") && $0.contains("● Playing") }
        #expect(playing.matched, "screen:\n\(playing.screen)")
        try terminal.send("Escape")
        let back = try terminal.waitFor(timeout: 10) { $0.contains("▸ Night FM") && $0.contains("— Playing") }
        #expect(back.matched, "the mini player shows what plays:\n\(back.screen)")

        try terminal.send("Tab")
        #expect(try terminal.waitFor(timeout: 10) { $0.contains("[a] Add Podcast") }.matched)
        try terminal.send("a")
        try terminal.sendText(missing.url("/feed.xml").absoluteString)
        try terminal.send("Enter")
        let alert = try terminal.waitFor(timeout: 30) { $0.contains("Not Found") && $0.contains("[Enter] OK") }
        #expect(alert.matched, "screen:\n\(alert.screen)")
        try terminal.send("Enter")
        // Up Next, Sessions, History, Favourites, then Diagnostics.
        for _ in 0..<5 { try terminal.send("Tab") }
        let diagnostics = try terminal.waitFor(timeout: 10) { $0.contains("Errors: 1") && $0.contains("Resource.notFound") }
        #expect(diagnostics.matched, "screen:\n\(diagnostics.screen)")
        try terminal.send("q")
        #expect(try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }.matched)
    }
}

extension TerminalScreenTests {
    /// Ctrl-C (SIGINT) and SIGTERM end the terminal screens cleanly: the program exits and the
    /// terminal leaves the full-screen mode (the pane shows what was there before, not the UI).
    @Test(arguments: ["C-c", "SIGTERM"])
    func signalsRestoreTheTerminal(how: String) throws {
        let (dir, tone) = try PlaybackCommandTests.tone(seconds: 30)
        defer { try? FileManager.default.removeItem(at: dir) }
        for command in [[CLITests.binary.path, "play", tone.path, "--output", "null"], [CLITests.binary.path, "--output", "null"]] {
            let terminal = try TmuxSession(
                command, environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "XDG_DATA_HOME": dir.appendingPathComponent("data").path])
            #expect(try terminal.waitFor(timeout: 20) { $0.contains("Tonearm") }.matched)
            if how == "C-c" {
                try terminal.send("C-c")
            } else {
                let pid = try #require(Int32(terminal.panePID()))
                kill(pid, SIGTERM)
            }
            let ended = try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }
            #expect(ended.matched, "\(command[1]) still running after \(how)")
            // tmux may mark the pane dead before it has read the program's last bytes: give the
            // restore a moment to arrive.
            let restored = try terminal.waitFor(timeout: 5) { !$0.contains("Tonearm") }
            #expect(restored.matched, "the screen was not restored after \(how):\n\(restored.screen)")
        }
    }
}

extension TerminalScreenTests {
    /// A failing service beside playback (here the status API) is an inline error line under the
    /// controls; x dismisses it and playback never stops.
    @Test func aFailingStatusAPIIsAnInlineErrorThatXDismisses() throws {
        let icecast = try IcecastServer()
        defer { icecast.stop() }
        let status = try TestHTTPServer { _ in .complete(status: 404, contentType: "text/plain", body: Data("no".utf8)) }
        defer { status.stop() }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-inline-\(UUID().uuidString)")
        let terminal = try TmuxSession(
            [CLITests.binary.path, "play", icecast.streamURL.absoluteString, "--output", "null",
             "--status-url", status.url("/api/status").absoluteString, "--status-api", "radioco"],
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "XDG_DATA_HOME": home.path])
        #expect(try terminal.waitFor(timeout: 30) { $0.contains("● Playing") }.matched)
        try icecast.setTitle("Artist - Song")
        let inline = try terminal.waitFor(timeout: 20) { $0.contains("[x] Dismiss") }
        #expect(inline.matched, "screen:\n\(inline.screen)")
        #expect(inline.screen.contains("● Playing"))
        try terminal.send("x")
        let dismissed = try terminal.waitFor(timeout: 10) { !$0.contains("[x] Dismiss") }
        #expect(dismissed.matched, "screen:\n\(dismissed.screen)")
        // The title still comes from the stream itself, and the same failure is not shown again.
        let titled = try terminal.waitFor(timeout: 20) { $0.contains("Song") }
        #expect(titled.matched && !titled.screen.contains("[x] Dismiss"), "screen:\n\(titled.screen)")
        try terminal.send("q")
        _ = try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }
    }
}
