import Foundation
import TestProcesses
import Testing

/// The listener's volume from every front end of the program: stdin and the JSON events, the
/// keys on Now Playing under tmux, MPRIS through playerctl; and kept in the library between runs.
@Suite("tonearm volume", .serialized, .blocking)
struct VolumeCommandTests {
    static func volumes(_ events: [[String: Any]]) -> [Double] {
        events.filter { $0["event"] as? String == "volume" }.compactMap { $0["volume"] as? Double }
    }

    @Sendable static func volumeIs(_ level: Double) -> @Sendable ([[String: Any]]) -> Bool {
        { events in volumes(events).last == level }
    }

    @Sendable static func playing(_ events: [[String: Any]]) -> Bool {
        events.contains { $0["state"] as? String == "playing" }
    }

    /// `volume` on stdin changes it (absolute and relative, announced as events); the next run
    /// starts at the last level set, and a `--volume` given for one run is not kept.
    @Test func stdinChangesTheVolumeAndTheLibraryKeepsIt() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 20)
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = ["XDG_DATA_HOME": dir.appendingPathComponent("data").path]
        let arguments = ["play", file.path, "--output", "null", "--events", "jsonl"]

        let first = try PlaybackCommandTests.run(
            arguments, environment: data,
            inputs: [(Self.playing, "volume 40%"), (Self.volumeIs(0.4), "volume +5%"), (Self.volumeIs(0.45), "stop")])
        #expect(first.status == 0, "stderr: \(first.err)")
        #expect(Self.volumes(first.events) == [1, 0.4, 0.45])

        let once = try PlaybackCommandTests.run(arguments + ["--volume", "80%"], environment: data, inputs: [(Self.playing, "stop")])
        #expect(once.status == 0, "stderr: \(once.err)")
        #expect(Self.volumes(once.events) == [0.8])

        let next = try PlaybackCommandTests.run(arguments, environment: data, inputs: [(Self.playing, "stop")])
        #expect(next.status == 0, "stderr: \(next.err)")
        #expect(Self.volumes(next.events) == [0.45], "the next run starts where the listener left it")
    }

    @Test func anOutOfRangeVolumeIsAUsageError() throws {
        let r = try CLITests.run(["play", "/nonexistent.flac", "--volume", "200%"])
        #expect(r.status != 0)
        #expect(r.err.contains("--volume"), "stderr: \(r.err)")
    }

    /// The keys on Now Playing: 9 and - quieter, 0 and + louder, 5 % a press, shown on screen.
    @Test func keysOnNowPlayingChangeTheVolumeShownOnScreen() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 30)
        defer { try? FileManager.default.removeItem(at: dir) }
        let terminal = try TmuxSession.nowPlaying(file, data: dir.appendingPathComponent("data"))
        let playing = try terminal.waitFor(timeout: 20) { $0.contains("● Playing") }
        #expect(playing.matched && playing.screen.contains("Volume 100%"), "screen:\n\(playing.screen)")
        try terminal.send("9")
        try terminal.send("-")
        let quieter = try terminal.waitFor(timeout: 10) { $0.contains("Volume 90%") }
        #expect(quieter.matched, "screen:\n\(quieter.screen)")
        try terminal.send("0")
        let louder = try terminal.waitFor(timeout: 10) { $0.contains("Volume 95%") }
        #expect(louder.matched, "screen:\n\(louder.screen)")
        try terminal.send("q")
        #expect(try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }.matched)
    }

    /// MPRIS Volume is writable: `playerctl volume 0.5` sets it, a follower sees the change
    /// (PropertiesChanged), and reading it back gives the new level.
    @Test func playerctlSetsTheVolume() throws {
        let bus = try DBusSession()
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 30)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tonearm = try MPRISTests.Running(["play", file.path, "--output", "null"], bus: bus.address)
        defer { tonearm.end() }
        #expect(try bus.wait(for: ["-p", "tonearm", "status"], timeout: 20) { $0 == "Playing" }.matched, "stderr: \(tonearm.stderr)")
        #expect(Double(try bus.playerctl(["-p", "tonearm", "volume"]).out) == 1)
        let follower = try bus.follow(["-p", "tonearm", "--follow", "volume"])
        try bus.playerctl(["-p", "tonearm", "volume", "0.5"])
        let read = try bus.wait(for: ["-p", "tonearm", "volume"], timeout: 10) { Double($0) == 0.5 }
        #expect(read.matched, "volume read back: \(read.out)")
        let followed = try follower.waitForLines(timeout: 10) { $0.compactMap(Double.init).last == 0.5 }
        #expect(followed.matched, "playerctl --follow saw \(followed.lines)")
        try bus.playerctl(["-p", "tonearm", "volume", "0.1-"])
        #expect(try bus.wait(for: ["-p", "tonearm", "volume"], timeout: 10) { Double($0) == 0.4 }.matched)
    }
}
