import Foundation
import TestProcesses
import Testing

/// The sleep timer from the command line, stdin, the keys and MPRIS.
@Suite("tonearm sleep timer", .serialized, .blocking)
struct SleepCommandTests {
    static func sleepEvents(_ events: [[String: Any]]) -> [[String: Any]] {
        events.filter { $0["event"] as? String == "sleepTimer" }
    }

    /// `--sleep 3s --sleep-fade 1`: three seconds of listening, a one-second fade, the end; every
    /// state event on the way says how long is left.
    @Test func aShortTimerEndsPlaybackWithItsFade() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 20)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try PlaybackCommandTests.run(["play", file.path, "--output", "null", "--events", "jsonl", "--sleep", "3s", "--sleep-fade", "1"])
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(PlaybackCommandTests.stateNames(r.events).suffix(3) == ["playing", "fadingOut", "finished"])
        let fading = r.events.first { $0["state"] as? String == "fadingOut" }
        #expect(fading?["targetDuration"] as? Double == 1)
        let playing = r.events.first { $0["state"] as? String == "playing" }
        #expect((playing?["sleepIn"] as? Double).map { $0 > 2 && $0 <= 3 } == true, "\(String(describing: playing))")
        let positions = r.events.filter { $0["event"] as? String == "position" }.compactMap { $0["position"] as? Double }
        #expect((positions.last ?? 0) < 5.5, "played on to \(positions.last ?? 0) s")
    }

    /// On stdin: set, extend, cancel; a pause freezes what is left.
    @Test func stdinSetsExtendsAndCancels() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 20)
        defer { try? FileManager.default.removeItem(at: dir) }
        @Sendable func sleepCount(_ n: Int) -> @Sendable ([[String: Any]]) -> Bool { { Self.sleepEvents($0).count >= n } }
        let r = try PlaybackCommandTests.run(
            ["play", file.path, "--output", "null", "--events", "jsonl"],
            inputs: [
                ({ events in events.contains { $0["state"] as? String == "playing" } }, "sleep 20m"),
                (sleepCount(1), "sleep +5m"),
                (sleepCount(2), "pause"),
                ({ events in events.contains { $0["state"] as? String == "paused" } }, "sleep cancel"),
                ({ events in Self.sleepEvents(events).contains { $0["sleep"] is NSNull } }, "stop"),
            ])
        #expect(r.status == 0, "stderr: \(r.err)")
        let changes = Self.sleepEvents(r.events)
        let set = changes.first?["sleepIn"] as? Double ?? 0
        #expect(set > 1_195 && set <= 1_200, "set: \(changes)")
        let extended = changes.dropFirst().first?["sleepIn"] as? Double ?? 0
        #expect(extended > 1_490 && extended <= 1_500, "extended: \(changes)")
        let paused = r.events.first { $0["state"] as? String == "paused" }
        #expect(paused?["sleep"] as? String == "afterDuration")
        #expect(changes.last?["sleep"] is NSNull, "cancelled: \(changes)")
        #expect(PlaybackCommandTests.stateNames(r.events).suffix(2) == ["paused", "idle"], "the stop ended it, not the timer")
    }

    /// The key z on Now Playing sets 15 minutes, shown as a countdown; MPRIS metadata carries it.
    @Test func theKeyAndMPRISShowTheCountdown() throws {
        let bus = try DBusSession()
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 60)
        defer { try? FileManager.default.removeItem(at: dir) }
        let terminal = try TmuxSession.nowPlaying(file, data: dir.appendingPathComponent("data"), bus: bus)
        #expect(try terminal.waitFor(timeout: 20) { $0.contains("● Playing") }.matched)
        try terminal.send("z")
        let set = try terminal.waitFor(timeout: 10) { $0.contains("Sleep in 14:5") }
        #expect(set.matched, "screen:\n\(set.screen)")
        let sleepIn = try bus.wait(for: ["-p", "tonearm", "metadata", "tonearm:sleepIn"], timeout: 10) { (Int($0) ?? 0) > 880 }
        #expect(sleepIn.matched, "tonearm:sleepIn \(sleepIn.out)")
        try terminal.send("z")
        #expect(try terminal.waitFor(timeout: 10) { $0.contains("Sleep in 29:5") }.matched)
        try terminal.send("q")
        #expect(try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }.matched)
    }
}
