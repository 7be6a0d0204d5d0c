import Foundation
import PlayerCore
import TestProcesses
import Testing

/// `--log-level` and `--log-file` on the built binary: a trace log of a real stream holds request
/// and state lines and no canary; the default level writes nothing on a run that succeeds; the
/// default file is under `$XDG_STATE_HOME`.
@Suite("tonearm logging", .blocking)
struct LoggingCommandTests {
    static let canary = "CANARY-7f3a"

    static let mp3: Result<Data, FFmpegFixture.Failure> = FFmpegFixture.make(
        ["-f", "lavfi", "-i", "sine=frequency=440:duration=20:sample_rate=44100", "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k"],
        fileName: "tone.mp3")

    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-logs-\(UUID().uuidString)")
    }

    /// The level word of each line (`<time> <level> <label> ...`).
    static func levels(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in line.split(separator: " ").dropFirst().first.map(String.init) }
    }

    static let belowWarning: Set<String> = ["trace", "debug", "info", "notice"]

    @Test func aTraceLogOfAStreamHasRequestAndStateLinesAndNoCanary() throws {
        let audio = try Self.mp3.get()
        let server = try TestHTTPServer { _ in
            TestHTTPServer.Response(status: 200, headers: [("Content-Type", "audio/mpeg"), ("icy-name", "Fixture FM")], body: [.bytes(audio), .hold])
        }
        defer { server.stop() }
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A folder that does not exist yet: the binary creates it.
        let logFile = folder.appendingPathComponent("nested/tonearm.log")
        let url = "http://canaryuser:\(Self.canary)@127.0.0.1:\(server.port)/stream.mp3?token=\(Self.canary)"
        let r = try PlaybackCommandTests.run(
            ["play", url, "--output", "null", "--events", "jsonl", "--log-level", "trace", "--log-file", logFile.path],
            environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path],
            inputs: [({ events in events.contains { $0["event"] as? String == "position" } }, "stop")])
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(server.requests.first?.uri.contains("token=\(Self.canary)") == true)

        let text = try String(contentsOf: logFile, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.contains { $0.contains(" debug tonearm ") && $0.contains("HTTP request ") && $0.contains("url=http://127.0.0.1:\(server.port)/stream.mp3") })
        #expect(lines.contains { $0.contains("HTTP response") && $0.contains("status=200") })
        #expect(lines.contains { $0.contains(" info tonearm ") && $0.contains(" state ") && $0.contains("state=playing") })
        #expect(lines.contains { $0.contains(" trace tonearm ") && $0.contains("event=positionChanged") })
        #expect(!text.contains(Self.canary), "the canary is in the log")
        #expect(!text.contains("canaryuser"), "the user name is in the log")
        // Only the file named: nothing went to the default location.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("state/tonearm/tonearm.log").path))
    }

    /// A debug log is the timeline of a start: how long loading took, then each step in order,
    /// and the first sample after the output opened.
    @Test func aDebugLogMarksEachStepOfTheStartInOrder() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let logFile = folder.appendingPathComponent("tonearm.log")
        let r = try PlaybackCommandTests.run(
            ["play", file.path, "--output", "null", "--events", "jsonl", "--log-level", "debug", "--log-file", logFile.path],
            environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path])
        #expect(r.status == 0, "stderr: \(r.err)")
        let lines = try String(contentsOf: logFile, encoding: .utf8).split(separator: "\n").map(String.init)
        let started = try #require(lines.first { $0.contains(" started ") })
        #expect(started.contains(#/sinceLaunch=\d+ms/#), "\(started)")
        let named = lines.compactMap { line -> String? in
            guard line.contains(" startup "), let at = line.range(of: "step=") else { return nil }
            // A value with spaces is quoted.
            return String(line[at.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        // The files' durations are read while the library and the output open: "sources read" may
        // come anywhere before playback is asked for; the other steps keep their order.
        let start = Array(named.prefix(4))
        #expect(start.filter { $0 != "sources read" } == ["library opened", "output opened", "playback asked"], "\(named)")
        #expect(start.contains("sources read"), "\(named)")
        #expect(named.count == 5 && ["MPRIS ready", "MPRIS off"].contains(named.last ?? ""), "\(named)")
        let opened = try #require(lines.firstIndex { $0.contains("step=\"output opened\"") })
        let playing = try #require(lines.firstIndex { $0.contains(" state ") && $0.contains("state=playing") })
        #expect(playing > opened)
    }

    @Test func theDefaultLevelWritesNothingBelowWarningOnASuccessfulRun() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let r = try PlaybackCommandTests.run(
            ["play", file.path, "--output", "null", "--events", "jsonl"], environment: ["XDG_STATE_HOME": state.path])
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(PlaybackCommandTests.stateNames(r.events).last == "finished")
        let log = state.appendingPathComponent("tonearm/tonearm.log")
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(Self.levels(text).filter(Self.belowWarning.contains).isEmpty, "\(text)")
        #expect(text.isEmpty, "a successful run wrote: \(text)")
    }

    @Test func aFailureGoesToTheDefaultFileWithoutThePath() throws {
        let state = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let missing = "/nonexistent/secret-folder/x.mp3"
        let r = try PlaybackCommandTests.run(
            ["play", missing, "--output", "null", "--events", "jsonl"], environment: ["XDG_STATE_HOME": state.path])
        #expect(r.status == 1)
        let text = try String(contentsOf: state.appendingPathComponent("tonearm/tonearm.log"), encoding: .utf8)
        #expect(text.contains(" error tonearm ") && text.contains("command failed"), "\(text)")
        #expect(text.contains("errorType=\(PlaybackError(.fileNotFound).errorType)"), "\(text)")
        #expect(Self.levels(text).allSatisfy { !Self.belowWarning.contains($0) }, "\(text)")
        #expect(!text.contains("secret-folder"), "\(text)")
    }

    @Test func anUnknownLevelIsRefused() throws {
        let r = try CLITests.run(["play", "x.mp3", "--log-level", "chatty"])
        #expect(r.status != 0)
        #expect(r.err.contains("log-level"), "stderr: \(r.err)")
    }

    @Test func everyCommandThatPlaysOrFetchesTakesTheLoggingOptions() throws {
        for command in [["play"], ["session", "play"], ["render"], ["demo"], ["library"], ["podcast", "add"], ["podcast", "refresh"], ["podcast", "import"]] {
            let r = try CLITests.run(command + ["--help"])
            #expect(r.out.contains("--log-level") && r.out.contains("--log-file"), "\(command) --help: \(r.out)")
        }
    }
}
