import Foundation
import PlayerCore
import TestProcesses
import Testing

/// MPRIS with the real client: a private session bus, Tonearm headless on it, `playerctl`
/// listing, reading and driving it.
@Suite("MPRIS with playerctl", .serialized, .blocking)
struct MPRISTests {
    /// `tonearm ARGS` in the background on `bus`, stdin kept open (so a paused player waits).
    final class Running: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        let errors: URL

        init(_ arguments: [String], bus: String?, environment extra: [String: String] = [:]) throws {
            errors = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-mpris-\(UUID().uuidString).err")
            guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            process.executableURL = CLITests.binary
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["LANG"] = "C"
            environment["LC_ALL"] = nil
            environment["DBUS_SESSION_BUS_ADDRESS"] = bus ?? "unix:path=/nonexistent/tonearm-test-bus"
            environment["XDG_DATA_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-data-\(UUID().uuidString)").path
            for (key, value) in extra { environment[key] = value }
            process.environment = environment
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
        }

        var stderr: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

        func end() {
            if process.isRunning { process.terminate() }
            try? input.fileHandleForWriting.close()
        }

        deinit { end() }
    }

    static func tones() throws -> (URL, URL, URL, URL) {
        let (dir, a) = try PlaybackCommandTests.tone(seconds: 30)
        let b = dir.appendingPathComponent("second.flac")
        let c = dir.appendingPathComponent("third.flac")
        try FileManager.default.copyItem(at: a, to: b)
        try FileManager.default.copyItem(at: a, to: c)
        return (dir, a, b, c)
    }

    /// `tonearm share` reads the line of the Tonearm playing on the session bus (its MPRIS
    /// `tonearm:share`); with none there it says so and fails.
    @Test func tonearmShareGivesTheLineOfThePlayerOnTheBus() throws {
        let bus = try DBusSession()
        let (dir, a, _, _) = try Self.tones()
        defer { try? FileManager.default.removeItem(at: dir) }
        var r = try CLITests.run(["share"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(r.status == 1 && r.err.contains("no Tonearm is playing"), "\(r.out) \(r.err)")
        let tonearm = try Running(["play", a.path, "--output", "null"], bus: bus.address)
        defer { tonearm.end() }
        #expect(try bus.wait(for: ["-p", "tonearm", "status"], timeout: 20) { $0 == "Playing" }.matched, "stderr: \(tonearm.stderr)")
        #expect(try bus.playerctl(["-p", "tonearm", "metadata", "tonearm:share"]).out == "tone")
        r = try CLITests.run(["share"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(r.status == 0 && r.out == "tone\n", "\(r.out) \(r.err)")
        #expect(!r.out.contains(dir.path))
    }

    @Test func playerctlListsReadsAndDrivesALocalFile() throws {
        let bus = try DBusSession()
        let (dir, a, b, c) = try Self.tones()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tonearm = try Running(["play", a.path, b.path, "--output", "null"], bus: bus.address)
        defer { tonearm.end() }

        #expect(try bus.wait(for: ["-l"], timeout: 20) { $0.split(separator: "\n").contains("tonearm") }.matched, "stderr: \(tonearm.stderr)")
        #expect(try bus.wait(for: ["-p", "tonearm", "status"], timeout: 20) { $0 == "Playing" }.matched)
        #expect(try bus.playerctl(["-p", "tonearm", "metadata", "xesam:title"]).out == "tone")
        let length = Int(try bus.playerctl(["-p", "tonearm", "metadata", "mpris:length"]).out) ?? 0
        #expect(abs(length - 30_000_000) < 100_000, "mpris:length \(length)")
        #expect(try bus.playerctl(["-p", "tonearm", "metadata", "xesam:url"]).out == a.absoluteString)

        // A follower sees PropertiesChanged, not polls.
        let follower = try bus.follow(["-p", "tonearm", "--follow", "status"])
        try bus.playerctl(["-p", "tonearm", "play-pause"])
        #expect(try bus.wait(for: ["-p", "tonearm", "status"], timeout: 10) { $0 == "Paused" }.matched)
        try bus.playerctl(["-p", "tonearm", "play-pause"])
        #expect(try bus.wait(for: ["-p", "tonearm", "status"], timeout: 10) { $0 == "Playing" }.matched)
        let followed = try follower.waitForLines(timeout: 10) { $0.suffix(2) == ["Paused", "Playing"] }
        #expect(followed.matched, "playerctl --follow saw \(followed.lines)")

        try bus.playerctl(["-p", "tonearm", "position", "12"])
        let position = try bus.wait(for: ["-p", "tonearm", "position"], timeout: 10) { (Double($0) ?? 0) >= 12 }
        #expect(position.matched, "position after seeking to 12: \(position.out)")

        try bus.playerctl(["-p", "tonearm", "next"])
        #expect(try bus.wait(for: ["-p", "tonearm", "metadata", "xesam:title"], timeout: 20) { $0 == "second" }.matched)

        try bus.playerctl(["-p", "tonearm", "open", c.absoluteString])
        #expect(try bus.wait(for: ["-p", "tonearm", "metadata", "xesam:title"], timeout: 20) { $0 == "third" }.matched)
        #expect(try bus.wait(for: ["-p", "tonearm", "status"], timeout: 10) { $0 == "Playing" }.matched)
        #expect(tonearm.process.isRunning, "OpenUri replaced the playback without ending the program")
    }

    /// The same service under the terminal screens: a media key (here playerctl) pauses, and the
    /// screen shows it.
    @Test func theTerminalScreenIsDrivenByMPRISToo() throws {
        let bus = try DBusSession()
        let (dir, a, _, _) = try Self.tones()
        defer { try? FileManager.default.removeItem(at: dir) }
        let terminal = try TmuxSession(
            [CLITests.binary.path, "play", a.path, "--output", "null"],
            environment: [
                "TERM": "xterm-256color", "LANG": "C.UTF-8", "DBUS_SESSION_BUS_ADDRESS": bus.address,
                "XDG_DATA_HOME": dir.appendingPathComponent("data").path,
            ])
        #expect(try terminal.waitFor(timeout: 20) { $0.contains("● Playing") }.matched)
        #expect(try bus.wait(for: ["-p", "tonearm", "status"], timeout: 10) { $0 == "Playing" }.matched)
        try bus.playerctl(["-p", "tonearm", "pause"])
        let paused = try terminal.waitFor(timeout: 10) { $0.contains("● Paused") }
        #expect(paused.matched, "screen:\n\(paused.screen)")
        try bus.playerctl(["-p", "tonearm", "stop"])
        #expect(try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }.matched, "stop ends the program")
    }

    @Test func aLiveStreamHasNoLengthAndItsTitleFollowsIcecast() throws {
        let bus = try DBusSession()
        let icecast = try IcecastServer()
        defer { icecast.stop() }
        let tonearm = try Running(["play", icecast.streamURL.absoluteString, "--output", "null"], bus: bus.address)
        defer { tonearm.end() }
        #expect(try bus.wait(for: ["-p", "tonearm", "status"], timeout: 30) { $0 == "Playing" }.matched, "stderr: \(tonearm.stderr)")
        try icecast.setTitle("Miles Davis - So What")
        #expect(try bus.wait(for: ["-p", "tonearm", "metadata", "xesam:title"], timeout: 20) { $0 == "So What" }.matched)
        #expect(try bus.playerctl(["-p", "tonearm", "metadata", "xesam:artist"]).out == "Miles Davis")
        let metadata = try bus.playerctl(["-p", "tonearm", "metadata"]).out
        #expect(!metadata.contains("mpris:length"), "a live stream has no length:\n\(metadata)")
        // A live stream cannot seek.
        #expect(try bus.playerctl(["-p", "tonearm", "position", "30"]).out.isEmpty)
        try icecast.setTitle("John Coltrane - Naima")
        #expect(try bus.wait(for: ["-p", "tonearm", "metadata", "xesam:title"], timeout: 20) { $0 == "Naima" }.matched)
    }

    @Test func aFailedPlayerIsStopped() throws {
        let bus = try DBusSession()
        let refusing = try TestHTTPServer.refusingPort()
        defer { refusing.release() }
        let port = refusing.port
        // --plain keeps a recoverable failure on screen, waiting for Retry.
        let tonearm = try Running(
            ["play", "--plain", "--finite", "http://127.0.0.1:\(port)/gone.mp3", "--output", "null", "--give-up-after", "1"], bus: bus.address)
        defer { tonearm.end() }
        #expect(try bus.wait(for: ["-l"], timeout: 20) { $0.contains("tonearm") }.matched, "stderr: \(tonearm.stderr)")
        let stopped = try bus.wait(for: ["-p", "tonearm", "status"], timeout: 30) { $0 == "Stopped" }
        #expect(stopped.matched, "status: \(stopped.out)")
        #expect(tonearm.process.isRunning)
    }

    @Test func withoutASessionBusItWarnsAndPlaysOn() throws {
        let (dir, tone) = try PlaybackCommandTests.tone(seconds: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tonearm = try Running(["play", tone.path, "--output", "null", "--fast"], bus: nil)
        tonearm.process.waitUntilExit()
        #expect(tonearm.process.terminationStatus == 0)
        // --fast renders: there is nobody to control it, so MPRIS is not even tried.
        #expect(!tonearm.stderr.contains("MPRIS"))
        let live = try Running(["play", tone.path, "--output", "null"], bus: nil)
        live.process.waitUntilExit()
        #expect(live.process.terminationStatus == 0)
        #expect(live.stderr.contains("MPRIS is off"), "stderr: \(live.stderr)")
    }
}
