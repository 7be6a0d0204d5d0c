import Foundation
import TestProcesses
import Testing

/// Loudness levelling from the front ends of the program: `--loudness`, stdin and the JSON
/// events, the `L` key on Now Playing under tmux; the setting kept in the library between runs.
@Suite("tonearm loudness", .serialized, .blocking)
struct LoudnessCommandTests {
    static func loudness(_ events: [[String: Any]]) -> [(mode: String, gain: Double?)] {
        events.filter { $0["event"] as? String == "loudness" }.compactMap { event in
            (event["mode"] as? String).map { ($0, event["gain"] as? Double) }
        }
    }

    @Sendable static func levelled(_ events: [[String: Any]]) -> Bool {
        loudness(events).last.map { $0.mode == "track" && $0.gain != nil } ?? false
    }

    /// `loudness track` on stdin levels the file by the gain its measured loudness needs (told in
    /// the events); the next run starts levelled, and a `--loudness` for one run is not kept.
    @Test func stdinTurnsLevellingOnAndTheLibraryKeepsIt() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 20)
        defer { try? FileManager.default.removeItem(at: dir) }
        let reference = try FFmpegLoudness.measure(file).integrated
        let data = ["XDG_DATA_HOME": dir.appendingPathComponent("data").path]
        let arguments = ["play", file.path, "--output", "null", "--events", "jsonl"]

        let first = try PlaybackCommandTests.run(
            arguments, environment: data, inputs: [(VolumeCommandTests.playing, "loudness track"), (Self.levelled, "stop")])
        #expect(first.status == 0, "stderr: \(first.err)")
        let told = Self.loudness(first.events)
        #expect(told.first?.mode == "off")
        // Told once the file is measured (the state's end then says nothing plays).
        let gain = try #require(told.compactMap(\.gain).last)
        #expect(abs(gain - (-16 - reference)) <= 0.3, "gain \(gain) for a file at \(reference) LUFS")

        let once = try PlaybackCommandTests.run(
            arguments + ["--loudness", "off"], environment: data, inputs: [(VolumeCommandTests.playing, "stop")])
        #expect(Self.loudness(once.events).map(\.mode) == ["off"])

        let next = try PlaybackCommandTests.run(arguments, environment: data, inputs: [(Self.levelled, "stop")])
        #expect(next.status == 0, "stderr: \(next.err)")
        #expect(Self.loudness(next.events).first?.mode == "track", "the next run starts levelled")
    }

    @Test func aTargetOutOfRangeIsAUsageError() throws {
        let r = try CLITests.run(["play", "/nonexistent.flac", "--loudness-target=-40"])
        #expect(r.status != 0)
        #expect(r.err.contains("--loudness-target"), "stderr: \(r.err)")
    }

    /// `L` on Now Playing cycles off, track, session, and the screen says what applies.
    @Test func theKeyCyclesTheModeShownOnScreen() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 30)
        defer { try? FileManager.default.removeItem(at: dir) }
        let terminal = try TmuxSession.nowPlaying(file, data: dir.appendingPathComponent("data"))
        let playing = try terminal.waitFor(timeout: 20) { $0.contains("● Playing") }
        #expect(playing.matched && !playing.screen.contains("Level "), "screen:\n\(playing.screen)")
        try terminal.send("L")
        let track = try terminal.waitFor(timeout: 10) { $0.range(of: #"Level track [−+]\d+\.\d dB"#, options: .regularExpression) != nil }
        #expect(track.matched, "screen:\n\(track.screen)")
        try terminal.send("L")
        let session = try terminal.waitFor(timeout: 10) { $0.contains("Level session") }
        #expect(session.matched, "screen:\n\(session.screen)")
        try terminal.send("L")
        let off = try terminal.waitFor(timeout: 10) { !$0.contains("Level ") }
        #expect(off.matched, "screen:\n\(off.screen)")
        try terminal.send("q")
        #expect(try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }.matched)
    }

    /// Desktop widgets read the levelling from the MPRIS metadata (`tonearm:loudness`).
    @Test func playerctlReadsTheLevelling() throws {
        let bus = try DBusSession()
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 30)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tonearm = try MPRISTests.Running(["play", file.path, "--output", "null", "--loudness", "track"], bus: bus.address)
        defer { tonearm.end() }
        #expect(try bus.wait(for: ["-p", "tonearm", "status"], timeout: 20) { $0 == "Playing" }.matched, "stderr: \(tonearm.stderr)")
        let read = try bus.wait(for: ["-p", "tonearm", "metadata", "tonearm:loudness"], timeout: 10) {
            $0.range(of: #"^track [-+]\d+\.\d dB$"#, options: .regularExpression) != nil
        }
        #expect(read.matched, "tonearm:loudness \(read.out)")
    }

    /// `tonearm loudness` measures a file as FFmpeg does, keeps the figure (the next run says so),
    /// and reports a missing file without giving up on the others.
    @Test func theLoudnessCommandMeasuresAndKeeps() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 5)
        defer { try? FileManager.default.removeItem(at: dir) }
        let reference = try FFmpegLoudness.measure(file).integrated
        let data = dir.appendingPathComponent("data")
        let first = try CLITests.run(["loudness", file.path, "--json"], dataHome: data)
        #expect(first.status == 0, "stderr: \(first.err)")
        let lines = try #require(try JSONSerialization.jsonObject(with: Data(first.out.utf8)) as? [[String: Any]])
        let lufs = try #require(lines.first?["lufs"] as? Double)
        #expect(abs(lufs - reference) <= 0.2, "Tonearm \(lufs), FFmpeg \(reference)")
        #expect(lines.first?["kept"] as? Bool == false)
        let again = try CLITests.run(["loudness", dir.appendingPathComponent("missing.flac").path, file.path], dataHome: data)
        #expect(again.status == 1)
        #expect(again.err.contains("missing.flac"), "stderr: \(again.err)")
        #expect(again.out.contains("measured, kept"), "stdout: \(again.out)")
    }
}
