import Foundation
import PlayerCore
import TestProcesses
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `tonearm serve` as contrib/systemd/tonearm.service runs it (the harness plays systemd's part:
/// the unit's ExecStart=, a notify socket, SIGHUP for reload, SIGTERM for stop).
@Suite("tonearm serve", .blocking)
struct ServeCommandTests {
    @Test func theUnitFileVerifiesAndSaysHowTheDaemonIsRunAndStopped() throws {
        let unit = Dictionary(try ServeHarness.unit().map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(unit["Type"] == "notify")
        #expect(unit["KillSignal"] == "SIGTERM")
        #expect(unit["ExecReload"] == "/bin/kill -HUP $MAINPID")
        #expect(try ServeHarness.execStartArguments().first == "serve")
        let analyze = "/usr/bin/systemd-analyze"
        guard FileManager.default.isExecutableFile(atPath: analyze) else { return }
        // The unit as installed, with its binary where this build put it.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try String(contentsOf: CLITests.packageRoot.appendingPathComponent("contrib/systemd/tonearm.service"), encoding: .utf8)
        let installed = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("ExecStart=") ? "ExecStart=\(CLITests.binary.path) " + (try! ServeHarness.execStartArguments()).joined(separator: " ") : String(line)
        }.joined(separator: "\n")
        let file = directory.appendingPathComponent("tonearm.service")
        try installed.write(to: file, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out").path
        let verify = try ChildProcess(analyze, ["verify", file.path], environment: ProcessInfo.processInfo.environment, stdout: out, stderr: out)
        let status = verify.wait(timeout: 60)
        #expect(status == 0, "systemd-analyze verify: \((try? String(contentsOfFile: out, encoding: .utf8)) ?? "")")
    }

    @Test func theDaemonIsReadyAloneReopensItsLogOnHUPAndEndsWithZeroOnTERM() throws {
        let daemon = try ServeHarness(extra: ["--output", "null"])
        try daemon.waitUntilReady()
        #expect(try daemon.info()["pid"] as? Int == Int(daemon.process.pid))
        // No session bus: MPRIS is skipped with one line, and the daemon serves on.
        #expect(daemon.logText.components(separatedBy: "MPRIS is off").count == 2, "\(daemon.logText)")

        // A second daemon of the same user is refused, naming the first.
        let second = try daemon.run(["serve", "--output", "null"])
        #expect(second.status == 1)
        #expect(second.err.contains("Daemon Already Playing"), "stderr: \(second.err)")
        #expect(second.err.contains("pid \(daemon.process.pid)"), "stderr: \(second.err)")

        // logrotate's move, then `systemctl reload`: new records start a new file.
        let rotated = daemon.logFile.deletingLastPathComponent().appendingPathComponent("serve.log.rotated")
        try FileManager.default.moveItem(at: daemon.logFile, to: rotated)
        daemon.process.send(SIGHUP)
        #expect(eventuallyBlocking(timeout: 30) { daemon.logText.contains("log reopened") }, "\(daemon.stderrText)")
        #expect(daemon.process.exitStatus == nil)

        daemon.process.send(SIGTERM)
        #expect(daemon.process.wait(timeout: 60) == 0, "\(daemon.stderrText)\n\(daemon.logText)")
        #expect(daemon.logText.contains("stopped"))
        #expect(!FileManager.default.fileExists(atPath: daemon.infoFile.path))
        let old = (try? String(contentsOf: rotated, encoding: .utf8)) ?? ""
        #expect(old.contains("serving") && !old.contains("log reopened"))
    }

    @Test func underSystemdTheLogGoesToTheJournalWithPriorities() throws {
        let daemon = try ServeHarness(extra: ["--output", "null"], journal: true)
        try daemon.waitUntilReady()
        daemon.process.send(SIGTERM)
        #expect(daemon.process.wait(timeout: 60) == 0)
        let lines = daemon.stderrText.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("<6>info tonearm [Daemon] started") }, "\(daemon.stderrText)")
        #expect(lines.contains { $0.hasPrefix("<5>notice tonearm [Daemon] serving") })
        #expect(lines.contains { $0.hasPrefix("<5>notice tonearm [Daemon] stopped") })
        #expect(lines.allSatisfy { $0.hasPrefix("<") }, "\(daemon.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: daemon.logFile.path))
    }

    @Test func termSavesThePlaceOfAnEpisodePlaying() throws {
        let (dir, tone) = try PlaybackCommandTests.tone(seconds: 60)
        defer { try? FileManager.default.removeItem(at: dir) }
        let audio = try Data(contentsOf: tone)
        let server = try TestHTTPServer { request in
            request.path == "/feed"
                ? .complete(
                    contentType: "application/rss+xml", body: LibraryCommandTests.feed(title: "Long", items: [("e1", "Episode", "/audio.flac")]))
                : .complete(contentType: "audio/flac", body: audio)
        }
        defer { server.stop() }
        let home = LibraryCommandTests.dataHome()
        let added = try CLITests.run(["podcast", "add", server.url("/feed").absoluteString], dataHome: home)
        #expect(added.status == 0, "stderr: \(added.err)")
        func saved() throws -> [String: Any]? {
            try LibraryCommandTests.json(try CLITests.run(["podcast", "episodes", "Long", "--json"], dataHome: home).out).first
        }
        let episodeID = try #require(try saved()?["id"] as? Int)

        let daemon = try ServeHarness(extra: ["--output", "null", "--episode", "\(episodeID)"], dataHome: home, logLevel: "trace")
        try daemon.waitUntilReady()
        // The place is kept while it plays, every 4 s of listening.
        var whilePlaying = 0.0
        #expect(eventuallyBlocking(timeout: 60) {
            whilePlaying = (try? saved()?["position"] as? Double) ?? 0
            return whilePlaying >= 4
        }, "\(daemon.logText)")
        // Two seconds further on, before the next periodic save, the daemon is stopped.
        #expect(eventuallyBlocking(timeout: 60) { daemon.heardPosition >= whilePlaying + 2 })
        daemon.process.send(SIGTERM)
        #expect(daemon.process.wait(timeout: 60) == 0, "\(daemon.stderrText)\n\(daemon.logText)")
        let heard = daemon.heardPosition
        let lines = daemon.logText
        #expect(lines.contains("state=fadingOut") && lines.contains("state=finished"), "\(lines.suffix(3000))")
        // Saved where the fade began: at least as far as was heard, not a periodic save's place.
        let final = try #require(try saved())
        let position = try #require(final["position"] as? Double)
        #expect(position >= whilePlaying + 2 && position <= heard + 0.5, "saved \(position) s, heard \(heard) s, \(whilePlaying) s while playing")
        #expect(final["played"] as? Bool != true)
    }

    @Test func anotherPlayerOnTheSoundServerIsRefusedWhileTheDaemonRuns() throws {
        let pulse = try PrivatePulseAudio()
        let (dir, tone) = try PlaybackCommandTests.tone(seconds: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sound = ["PULSE_SERVER": pulse.server]

        // Without a daemon, this plays to the sound server.
        let before = try CLITests.run(["play", tone.path, "--output", "pulse", "--events", "jsonl"], environment: sound)
        #expect(before.status == 0, "stderr: \(before.err)")
        #expect(before.out.contains("\"playing\""))

        let daemon = try ServeHarness(extra: ["--output", "null"])
        try daemon.waitUntilReady()
        let refused = try daemon.run(["play", tone.path, "--output", "pulse", "--events", "jsonl"], environment: sound)
        #expect(refused.status == 1)
        #expect(refused.err.contains("tonearm: Daemon Already Playing:"), "stderr: \(refused.err)")
        #expect(refused.err.contains("pid \(daemon.process.pid)") && refused.err.contains("systemctl --user stop tonearm"), "stderr: \(refused.err)")
        #expect(!refused.out.contains("\"playing\""), "stdout: \(refused.out)")
        // The same automatically chosen: PulseAudio answers, and is refused too.
        #expect(try daemon.run(["play", tone.path], environment: sound).status == 1)
        // A file or the null output disturbs nobody.
        #expect(try daemon.run(["play", tone.path, "--output", "null", "--fast"]).status == 0)

        daemon.process.send(SIGTERM)
        #expect(daemon.process.wait(timeout: 60) == 0)
        // Once it is gone, the sound server is free again.
        #expect(try daemon.run(["play", tone.path, "--output", "pulse"], environment: sound).status == 0)
    }
}

/// A PulseAudio server of one test (a null sink, an anonymous socket in a folder of its own), run
/// in the foreground so the test owns it.
final class PrivatePulseAudio: @unchecked Sendable {
    let directory: URL
    let process: ChildProcess
    var server: String { "unix:\(directory.path)/native" }

    init() throws {
        directory = URL(fileURLWithPath: "/tmp/tpa-\(UUID().uuidString.prefix(8))")
        for sub in ["home", "runtime"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(sub), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        try """
            load-module module-native-protocol-unix auth-anonymous=1 socket=\(directory.path)/native
            load-module module-null-sink sink_name=test
            set-default-sink test

            """.write(to: directory.appendingPathComponent("pulse.pa"), atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory.appendingPathComponent("home").path
        environment["XDG_RUNTIME_DIR"] = directory.appendingPathComponent("runtime").path
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("home/.config").path
        environment["PULSE_SERVER"] = nil
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        process = try ChildProcess(
            "/usr/bin/pulseaudio",
            [
                "-n", "-F", directory.appendingPathComponent("pulse.pa").path, "--exit-idle-time=-1", "--disallow-exit", "--daemonize=no",
                "--system=no", "--use-pid-file=no", "--realtime=no", "--high-priority=no", "--log-target=stderr",
            ], environment: environment, stdout: "/dev/null", stderr: directory.appendingPathComponent("pulseaudio.log").path)
        let socket = directory.appendingPathComponent("native").path
        guard eventuallyBlocking(timeout: 30, { FileManager.default.fileExists(atPath: socket) || process.exitStatus != nil }),
            process.exitStatus == nil
        else {
            let log = (try? String(contentsOf: directory.appendingPathComponent("pulseaudio.log"), encoding: .utf8)) ?? ""
            throw ServeHarness.Failure(description: "pulseaudio did not start: \(log)")
        }
    }

    deinit {
        process.send(SIGTERM)
        if process.wait(timeout: 10) == nil { process.send(SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }
}
