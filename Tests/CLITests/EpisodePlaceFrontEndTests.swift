import Foundation
import TestProcesses
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The same library episode played through each front end of the one player assembly
/// (`LibraryPlayerAssembly`): `tonearm play --episode`, the library screen, and `tonearm serve`
/// driven over MPD. Each is stopped as its listener stops it, and each keeps the place by the same
/// rule (`expectPlaceKeptAlike`): a periodic save while it plays, then the place where it was
/// stopped, never marked played.
@Suite("an episode's place through every front end", .serialized, .blocking)
struct EpisodePlaceFrontEndTests {
    /// A library of its own holding one podcast, "Long", whose one episode is a 60 s tone served
    /// by the test's own HTTP server.
    final class LongEpisode {
        let tone: URL
        let server: TestHTTPServer
        let home = LibraryCommandTests.dataHome()
        private(set) var id = 0

        init() throws {
            let (directory, file) = try PlaybackCommandTests.tone(seconds: 60)
            tone = directory
            let audio = try Data(contentsOf: file)
            server = try TestHTTPServer { request in
                request.path == "/feed"
                    ? .complete(
                        contentType: "application/rss+xml", body: LibraryCommandTests.feed(title: "Long", items: [("e1", "Episode", "/audio.flac")]))
                    : .complete(contentType: "audio/flac", body: audio)
            }
            let added = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
            try #require(added.status == 0, "stderr: \(added.err)")
            id = try #require(try saved()["id"] as? Int)
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: tone)
            try? FileManager.default.removeItem(at: home)
        }

        /// The episode as `tonearm podcast episodes Long --json` lists it now.
        func saved() throws -> [String: Any] {
            try #require(try LibraryCommandTests.json(try CLITests.run(["podcast", "episodes", "Long", "--json"], dataHome: home).out).first)
        }

        /// Its saved place; 0 when none is kept yet (or the library is busy for a moment).
        var position: Double { ((try? saved())?["position"] as? Double) ?? 0 }
    }

    /// One front end as the rule sees it: how far it has been heard, how its listener stops it,
    /// and when it has stopped.
    struct FrontEnd {
        var name: String
        /// The furthest position played so far.
        var heard: () -> Double
        /// What a listener does to stop (a signal, `q`, MPD's `stop`).
        var stop: () throws -> Void
        /// True once playback (or the program) has ended after `stop`.
        var stopped: () -> Bool
        /// What to show when the rule fails (the program's log, its screen).
        var context: () -> String
    }

    /// Where the rule found the place, for a front end's own checks after it.
    struct Kept {
        var periodic: Double
        var heard: Double
        var final: Double
    }

    /// The rule every front end keeps: while it plays, the place is saved periodically (every 4 s
    /// of listening, so it reaches 4 s); stopped two seconds past such a save, the place kept is
    /// where it stopped: at least a second past the last periodic save, not past what was heard
    /// (with a second's slack for the rounding of positions), and the episode is not played.
    static func expectPlaceKeptAlike(_ frontEnd: FrontEnd, episode: LongEpisode) throws -> Kept {
        let name = frontEnd.name
        var periodic = 0.0
        let saving = eventuallyBlocking(timeout: 30) {
            periodic = episode.position
            return periodic >= 4
        }
        try #require(saving, "\(name): no periodic save while playing (heard \(frontEnd.heard()) s)\n\(frontEnd.context())")
        // Stopped between two periodic saves, and well past the last one.
        let target = max(6, periodic + 2)
        try #require(eventuallyBlocking(timeout: 30) { frontEnd.heard() >= target }, "\(name): never heard \(target) s\n\(frontEnd.context())")
        // A save that came meanwhile is the last periodic one.
        periodic = max(periodic, episode.position)
        let stoppedAt = frontEnd.heard()
        try frontEnd.stop()
        try #require(eventuallyBlocking(timeout: 30, frontEnd.stopped), "\(name): still playing after the stop\n\(frontEnd.context())")
        var final = 0.0
        // A daemon goes on running: its last write may land just after its playback ended.
        _ = eventuallyBlocking(timeout: 5) {
            final = episode.position
            return final >= periodic + 1
        }
        let heard = frontEnd.heard()
        let saved = try episode.saved()
        #expect(
            final >= periodic + 1 && final <= heard + 1,
            "\(name): saved \(final) s; last periodic save \(periodic) s, stopped at \(stoppedAt) s, heard \(heard) s\n\(frontEnd.context())")
        #expect(saved["played"] as? Bool != true, "\(name): marked played after \(heard) s of 60 s: \(saved)")
        return Kept(periodic: periodic, heard: heard, final: final)
    }

    /// The furthest `position=` of the player's trace records (`--log-level trace`).
    static func heardInLog(_ file: URL) -> Double {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains("event=positionChanged") }.compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("position=") }.flatMap { Double($0.dropFirst("position=".count)) }
        }.max() ?? 0
    }

    /// A scratch folder for a front end's state, cache, config, log and output.
    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-place-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// `tonearm play --episode ID --output null --events jsonl`, its stdin a pipe the test holds
    /// open (its end would stop playback), stopped with Ctrl-C's SIGINT.
    @Test func theCommandLineKeepsThePlaceOnCtrlC() throws {
        let episode = try LongEpisode()
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("stdout")
        let err = scratch.appendingPathComponent("stderr")
        for file in [out, err] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["play", "--episode", "\(episode.id)", "--output", "null", "--events", "jsonl"]
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C"
        environment["LC_ALL"] = nil
        environment["LC_MESSAGES"] = nil
        environment["XDG_DATA_HOME"] = episode.home.path
        environment["XDG_STATE_HOME"] = scratch.appendingPathComponent("state").path
        environment["XDG_CACHE_HOME"] = scratch.appendingPathComponent("cache").path
        environment["XDG_CONFIG_HOME"] = scratch.appendingPathComponent("config").path
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(scratch.path)/no-bus"
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? input.fileHandleForWriting.close()
        }
        let events = { () -> [[String: Any]] in
            ((try? String(contentsOf: out, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
        let frontEnd = FrontEnd(
            name: "tonearm play --episode",
            heard: { events().filter { $0["event"] as? String == "position" }.compactMap { $0["position"] as? Double }.max() ?? 0 },
            stop: { kill(process.processIdentifier, SIGINT) },
            stopped: { !process.isRunning },
            context: {
                let stderr = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
                let stdout = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
                return "stderr: \(stderr)\nstdout: \(stdout.suffix(2000))"
            })
        _ = try Self.expectPlaceKeptAlike(frontEnd, episode: episode)
        #expect(process.terminationStatus == 0, "\(frontEnd.context())")
        // The player asked for the place as the listener stopped (its savePosition notice).
        #expect(events().contains { $0["notice"] as? String == "savePosition" }, "\(frontEnd.context())")
    }

    /// The library screen in a terminal: Podcasts, the podcast, its episode, Enter; then `q`.
    @Test func theLibraryScreenKeepsThePlaceOnQuit() throws {
        let episode = try LongEpisode()
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let log = scratch.appendingPathComponent("tonearm.log")
        let terminal = try TmuxSession(
            [CLITests.binary.path, "library", "--output", "null", "--log-level", "trace", "--log-file", log.path],
            environment: [
                "TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": scratch.path, "XDG_DATA_HOME": episode.home.path,
                "XDG_STATE_HOME": scratch.appendingPathComponent("state").path, "XDG_CACHE_HOME": scratch.appendingPathComponent("cache").path,
                "XDG_CONFIG_HOME": scratch.appendingPathComponent("config").path,
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(scratch.path)/no-bus",
            ])
        let opened = try terminal.waitFor(timeout: 20) { $0.contains("Podcasts") }
        try #require(opened.matched, "screen:\n\(opened.screen)")
        try terminal.send("Tab")
        let podcasts = try terminal.waitFor(timeout: 10) { $0.contains("▸ Long") }
        try #require(podcasts.matched, "screen:\n\(podcasts.screen)")
        try terminal.send("Enter")
        let episodes = try terminal.waitFor(timeout: 10) { $0.contains("◂ Long") && $0.contains("▸ Episode") }
        try #require(episodes.matched, "screen:\n\(episodes.screen)")
        try terminal.send("Enter")
        let playing = try terminal.waitFor(timeout: 30) { $0.contains("● Playing") }
        try #require(playing.matched, "screen:\n\(playing.screen)")
        let frontEnd = FrontEnd(
            name: "the library screen",
            heard: { Self.heardInLog(log) },
            stop: { try terminal.send("q") },
            stopped: { (try? terminal.paneIsDead()) == true },
            context: {
                let screen = (try? terminal.capture()) ?? ""
                let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").filter { !$0.contains("positionChanged") }
                return "screen:\n\(screen)\nlog:\n\(lines.suffix(40).joined(separator: "\n"))"
            })
        _ = try Self.expectPlaceKeptAlike(frontEnd, episode: episode)
    }

    /// `tonearm serve` as systemd runs it, with an MPD client that adds the episode by its path,
    /// plays it and stops it; the daemon is stopped with SIGTERM afterwards.
    @Test func theDaemonKeepsThePlaceOnMPDStop() throws {
        let episode = try LongEpisode()
        let daemon = try ServeHarness(extra: ["--output", "null"], dataHome: episode.home, logLevel: "trace")
        try daemon.waitUntilReady()
        let client = try MPDLineClient(daemon.runtime.appendingPathComponent("tonearm/mpd.sock").path)
        let added = try client.command("add \"Podcasts/Long/Episode\"")
        try #require(added.ack == nil, "\(added.ack ?? "")")
        let played = try client.command("play")
        try #require(played.ack == nil, "\(played.ack ?? "")")
        let frontEnd = FrontEnd(
            name: "tonearm serve over MPD",
            heard: { daemon.heardPosition },
            stop: {
                let stopped = try client.command("stop")
                #expect(stopped.ack == nil, "\(stopped.ack ?? "")")
            },
            stopped: { (try? client.status()["state"]) == "stop" },
            context: {
                let lines = daemon.logText.split(separator: "\n").filter { !$0.contains("positionChanged") }
                return "status: \(String(describing: try? client.status()))\nlog:\n\(lines.suffix(40).joined(separator: "\n"))"
            })
        let kept = try Self.expectPlaceKeptAlike(frontEnd, episode: episode)
        // The stop kept the place; the daemon's end, with nothing playing, leaves it where it is.
        daemon.process.send(SIGTERM)
        #expect(daemon.process.wait(timeout: 30) == 0, "\(daemon.stderrText)\n\(frontEnd.context())")
        #expect(episode.position == kept.final)
    }
}
