import Foundation
import PlayerCore
import Presentation
import TestProcesses
import Testing

/// The `tonearm` binary end to end: the demo's event stream, exit statuses, errors on stderr,
/// headless commands on stdin, the WAV fallback of the demo.
@Suite("tonearm playback commands", .blocking)
struct PlaybackCommandTests {
    /// Runs the binary with `arguments`; `input` lines are written to stdin when the JSON events
    /// printed so far satisfy the paired condition.
    static func run(
        _ arguments: [String], directory: URL? = nil, environment extra: [String: String] = [:],
        inputs: [(when: @Sendable ([[String: Any]]) -> Bool, line: String)] = []
    ) throws -> (status: Int32, events: [[String: Any]], err: String) {
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C"
        environment["LC_ALL"] = nil
        environment["LC_MESSAGES"] = nil
        // Each run gets its own library (and error analytics) unless the test shares one.
        environment["XDG_DATA_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-data-\(UUID().uuidString)").path
        // Logs of test runs stay out of the user's state folder.
        environment["XDG_STATE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-state-\(UUID().uuidString)").path
        // So are caches (artwork, directory answers), which would otherwise carry over between tests.
        environment["XDG_CACHE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-cache-\(UUID().uuidString)").path
        for (k, v) in extra { environment[k] = v }
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // A hung binary fails the test instead of hanging the run.
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer { watchdog.cancel() }
        var events: [[String: Any]] = []
        var pending = inputs
        var buffer = Data()
        let reader = out.fileHandleForReading
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] { events.append(object) }
                while let next = pending.first, next.when(events) {
                    // The line "<EOF>" closes stdin, as a controller that goes away would; "<KILL>"
                    // sends SIGKILL.
                    if next.line == "<EOF>" {
                        try? input.fileHandleForWriting.close()
                    } else if next.line == "<KILL>" {
                        // A crash: no fade, no last save.
                        kill(process.processIdentifier, SIGKILL)
                    } else if next.line == "<INT>" {
                        // Ctrl-C.
                        kill(process.processIdentifier, SIGINT)
                    } else {
                        input.fileHandleForWriting.write(Data((next.line + "\n").utf8))
                    }
                    pending.removeFirst()
                }
            }
        }
        try? input.fileHandleForWriting.close()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, events, errText)
    }

    static func stateNames(_ events: [[String: Any]]) -> [String] {
        var names: [String] = []
        for e in events where e["event"] as? String == "state" {
            if let s = e["state"] as? String, names.last != s { names.append(s) }
        }
        return names
    }

    static func tone(seconds: Double) throws -> (URL, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("tone.flac")
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)", "-ac", "2", file.path]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        #expect(ffmpeg.terminationStatus == 0, "ffmpeg could not make the test tone (is it installed?)")
        return (dir, file)
    }

    @Test func demoEventStreamPlaysEachStageOnceWithCrossfadesBetween() throws {
        let r = try Self.run(["render", "demo", "--output", "null", "--events", "jsonl"])
        #expect(r.status == 0, "stderr: \(r.err)")
        // A session plays idle -> preparing -> playing, then (preparingCrossfade -> crossfading
        // 0->1 -> playing) into each next stage, then fadingOut -> finished. The second stage loops
        // its source, and that loop is inside the stage's one track: two handovers for three stages.
        let handover = ["preparingCrossfade", "crossfading", "playing"]
        #expect(Self.stateNames(r.events) == ["idle", "preparing", "playing"] + handover + handover + ["fadingOut", "finished"])
        let fades = r.events.filter { $0["state"] as? String == "crossfading" }.compactMap { $0["progress"] as? Double }
        #expect(fades.contains(0) && fades.contains { $0 > 0.4 && $0 < 0.6 } && fades.contains(1))
        // In each crossfade, progress at least every 100 ms of audio (t is the audio clock; it is
        // rounded in the JSON, hence the small tolerance).
        var runs: [[Double]] = []
        var previous: String?
        for e in r.events where e["event"] as? String == "state" {
            let name = e["state"] as? String
            if name == "crossfading", let t = e["t"] as? Double {
                if previous != "crossfading" { runs.append([]) }
                runs[runs.count - 1].append(t)
            }
            previous = name
        }
        #expect(runs.count == 2)
        for run in runs {
            let gaps = zip(run, run.dropFirst()).map { $1 - $0 }
            #expect(gaps.allSatisfy { $0 <= 0.1 + 0.002 }, "largest gap \(gaps.max() ?? 0) s")
            #expect((run.last ?? 0) - (run.first ?? 0) > 5.9)
        }
        for e in r.events {
            #expect(e["t"] is Double && e["event"] is String)
        }
        // Every track is described without its URL; the looped stage is one track of 40 s.
        let tracks = r.events.compactMap { $0["track"] as? [String: Any] }
        #expect(!tracks.isEmpty && tracks.allSatisfy { $0["url"] == nil && $0["id"] is String })
        var titles: [String] = []
        for e in r.events where e["state"] as? String == "playing" {
            if let title = (e["track"] as? [String: Any])?["title"] as? String, titles.last != title { titles.append(title) }
        }
        #expect(titles == ["Arrival", "Breath", "Return"])
        let breath = tracks.first { $0["title"] as? String == "Breath" }
        #expect(breath?["duration"] as? Double == 40)
    }

    /// Ctrl-C stops with the fade and the program ends normally; a second one ends it at once
    /// with status 130 (whichever of the process's threads the kernel hands the signal to).
    @Test func aSignalStopsWithTheFadeAndASecondEndsAtOnce() throws {
        let (dir, file) = try Self.tone(seconds: 30)
        defer { try? FileManager.default.removeItem(at: dir) }
        @Sendable func playing(_ events: [[String: Any]]) -> Bool { events.contains { $0["state"] as? String == "playing" } }
        let once = try Self.run(["play", file.path, "--output", "null", "--events", "jsonl"], inputs: [(playing, "<INT>")])
        #expect(once.status == 0, "stderr: \(once.err)")
        #expect(Self.stateNames(once.events).suffix(2) == ["fadingOut", "finished"])
        // The second after the first was taken (two signals sent at once may arrive as one).
        @Sendable func fading(_ events: [[String: Any]]) -> Bool { events.contains { $0["state"] as? String == "fadingOut" } }
        let twice = try Self.run(
            ["play", file.path, "--output", "null", "--events", "jsonl", "--fade-out", "1"], inputs: [(playing, "<INT>"), (fading, "<INT>")])
        #expect(twice.status == 130, "stderr: \(twice.err)")
    }

    @Test func missingFileFailsWithItsMessage() throws {
        let r = try Self.run(["play", "/nonexistent/x.mp3", "--output", "null", "--events", "jsonl"])
        #expect(r.status == 1)
        #expect(r.err.contains(PlaybackError(.fileNotFound).message(in: .english)), "stderr: \(r.err)")
        let failed = r.events.last { $0["state"] as? String == "failed" }
        let error = failed?["error"] as? [String: Any]
        #expect(error?["type"] as? String == "Resource.fileNotFound")
        #expect(error?["recoverable"] as? Bool == false)
    }

    @Test func noSoundServerSuggestsAWavFile() throws {
        let (dir, file) = try Self.tone(seconds: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Self.run(["play", file.path], environment: ["PULSE_SERVER": "unix:/nonexistent/native"])
        #expect(r.status == 1)
        #expect(r.err.contains("--output wav:FILE"), "stderr: \(r.err)")
    }

    @Test func headlessCommandsOnStdin() throws {
        let (dir, file) = try Self.tone(seconds: 4)
        defer { try? FileManager.default.removeItem(at: dir) }
        @Sendable func count(_ name: String) -> @Sendable ([[String: Any]]) -> Bool {
            { events in events.contains { $0["state"] as? String == name } }
        }
        let r = try Self.run(
            ["play", file.path, "--output", "null", "--events", "jsonl"],
            inputs: [
                (count("playing"), "bogus"),
                (count("playing"), "pause"),
                (count("paused"), "seek 2.5"),
                (count("paused"), "resume"),
                ({ events in events.filter { $0["state"] as? String == "playing" }.count >= 2 }, "stop"),
            ])
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(Self.stateNames(r.events) == ["idle", "preparing", "playing", "paused", "playing", "fadingOut", "finished"])
        let pausedAt = r.events.last { $0["state"] as? String == "paused" }?["position"] as? Double
        #expect(pausedAt == 2.5, "seek while paused moved to \(String(describing: pausedAt))")
        #expect(r.err.contains("unknown command: bogus"))
    }

    @Test func stdinClosingWhilePausedStopsInsteadOfWaitingForever() throws {
        let (dir, file) = try Self.tone(seconds: 6)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Self.run(
            ["play", file.path, "--output", "null", "--events", "jsonl"],
            inputs: [
                ({ events in events.contains { $0["state"] as? String == "playing" } }, "pause"),
                ({ events in events.contains { $0["state"] as? String == "paused" } }, "<EOF>"),
            ])
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(Self.stateNames(r.events) == ["idle", "preparing", "playing", "paused", "idle"])
    }

    @Test func demoRendersToAWavFileWhenNoServerAnswers() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Self.run(["demo"], directory: dir, environment: ["PULSE_SERVER": "unix:/nonexistent/native"])
        #expect(r.status == 0, "stderr: \(r.err)")
        let wav = dir.appendingPathComponent("tonearm-demo.wav")
        #expect(r.err.contains("No sound server answered; rendering to tonearm-demo.wav instead."), "\(r.err)")
        let size = (try? FileManager.default.attributesOfItem(atPath: wav.path)[.size] as? Int) ?? 0
        // About 77 s of 16-bit stereo at 48 kHz.
        #expect(abs(Double(size) / 192_000 - 76.95) < 0.5, "demo WAV is \(size) bytes")
        // The notice is a value the front end words in the listener's language.
        let russian = try Self.run(["demo"], directory: dir, environment: ["PULSE_SERVER": "unix:/nonexistent/native", "LANG": "ru_RU.UTF-8"])
        #expect(russian.err.contains("Звуковой сервер не ответил; звук записывается в tonearm-demo.wav."), "\(russian.err)")
    }
}
