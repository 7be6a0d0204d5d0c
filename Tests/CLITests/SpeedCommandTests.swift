import Foundation
import TestProcesses
import Testing

/// Speed from the command line, stdin, the keys and MPRIS.
@Suite("tonearm speed", .serialized, .blocking)
struct SpeedCommandTests {
    /// `--speed 2`: a 6 s file is over after 3 s of audio, its positions still run to 6 s, and
    /// every position event says the speed.
    @Test func aFileAtTwiceTheSpeedTakesHalfTheTime() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 6)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try PlaybackCommandTests.run(["play", file.path, "--output", "null", "--fast", "--events", "jsonl", "--speed", "2"])
        #expect(r.status == 0, "stderr: \(r.err)")
        let finished = r.events.last { $0["state"] as? String == "finished" }
        let t = finished?["t"] as? Double ?? 0
        #expect(abs(t - 3) < 0.15, "finished at \(t) s of audio")
        let positions = r.events.filter { $0["event"] as? String == "position" }
        #expect((positions.last?["position"] as? Double ?? 0) > 5.5)
        #expect(positions.allSatisfy { $0["speed"] as? Double == 2 })
    }

    @Test func stdinChangesTheSpeedAndTheNextRunStartsThere() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 20)
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = ["XDG_DATA_HOME": dir.appendingPathComponent("data").path]
        @Sendable func speeds(_ events: [[String: Any]]) -> [Double] {
            events.filter { $0["event"] as? String == "speed" }.compactMap { $0["speed"] as? Double }
        }
        let first = try PlaybackCommandTests.run(
            ["play", file.path, "--output", "null", "--events", "jsonl"], environment: data,
            inputs: [
                ({ events in events.contains { $0["state"] as? String == "playing" } }, "speed 1.5"),
                ({ events in speeds(events).last == 1.5 }, "speed +0.25"),
                ({ events in speeds(events).last == 1.75 }, "stop"),
            ])
        #expect(first.status == 0, "stderr: \(first.err)")
        #expect(speeds(first.events) == [1, 1.5, 1.75])
        let next = try PlaybackCommandTests.run(
            ["play", file.path, "--output", "null", "--events", "jsonl"], environment: data,
            inputs: [({ events in events.contains { $0["state"] as? String == "playing" } }, "stop")])
        #expect(speeds(next.events) == [1.75])
    }

    /// `]` and `[` on Now Playing, shown there; MPRIS Rate is writable within its advertised range.
    @Test func theKeysAndMPRISRate() throws {
        let bus = try DBusSession()
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 60)
        defer { try? FileManager.default.removeItem(at: dir) }
        let terminal = try TmuxSession.nowPlaying(file, data: dir.appendingPathComponent("data"), bus: bus)
        #expect(try terminal.waitFor(timeout: 20) { $0.contains("● Playing") }.matched)
        try terminal.send("]")
        try terminal.send("]")
        let faster = try terminal.waitFor(timeout: 10) { $0.contains("Speed 1.1×") }
        #expect(faster.matched, "screen:\n\(faster.screen)")
        let object = ["--dest=org.mpris.MediaPlayer2.tonearm", "/org/mpris/MediaPlayer2"]
        let maximum = try bus.dbusSend(object + ["org.freedesktop.DBus.Properties.Get", "string:org.mpris.MediaPlayer2.Player", "string:MaximumRate"])
        #expect(maximum.out.contains("double 3"), "MaximumRate: \(maximum.out)")
        try bus.dbusSend(object + ["org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player", "string:Rate", "variant:double:1.5"])
        let set = try terminal.waitFor(timeout: 10) { $0.contains("Speed 1.5×") }
        #expect(set.matched, "screen:\n\(set.screen)")
        let rate = try bus.dbusSend(object + ["org.freedesktop.DBus.Properties.Get", "string:org.mpris.MediaPlayer2.Player", "string:Rate"])
        #expect(rate.out.contains("double 1.5"), "Rate: \(rate.out)")
        try terminal.send("q")
        #expect(try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }.matched)
    }
}
