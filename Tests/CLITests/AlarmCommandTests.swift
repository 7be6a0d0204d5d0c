import Foundation
import PlayerCore
import TestProcesses
import Testing

/// `tonearm alarm` waiting in its own process, end to end with the real binary: a clock that reads
/// three seconds before seven (the documented test seam), a real Icecast for a station that sounds
/// and one fed with silence, a closed port for a dead station. The fallback tone stands in as a
/// generated WAV through its test seam until the built-in sounds can be decoded.
@Suite("tonearm alarm", .blocking)
struct AlarmCommandTests {
    /// A library and a tone of the test's own, and the environment every command of it runs in.
    struct Setup {
        let directory: URL
        let environment: [String: String]

        init(now: String = "2026-03-02T06:59:57+01:00") throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-alarm-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let tone = directory.appendingPathComponent("tone.wav")
            let ffmpeg = Process()
            ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            ffmpeg.arguments = ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=880:sample_rate=48000:duration=1", "-ac", "2", tone.path]
            try ffmpeg.run()
            ffmpeg.waitUntilExit()
            #expect(ffmpeg.terminationStatus == 0, "ffmpeg could not make the tone")
            environment = [
                "XDG_DATA_HOME": directory.appendingPathComponent("data").path, "TZ": "Europe/Berlin", "TONEARM_TEST_NOW": now,
                "TONEARM_TEST_ALARM_TONE": tone.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/tonearm-test-bus",
            ]
        }

        func addStation(_ name: String, _ url: String) throws {
            let r = try PlaybackCommandTests.run(["station", "add", name, url], environment: environment)
            #expect(r.status == 0, "stderr: \(r.err)")
        }

        /// `tonearm alarm 07:00 --station NAME` on the null output with JSON events, interrupted
        /// (SIGINT) once `until` holds.
        func alarm(
            station: String, fadeIn: Int = 5, until: @escaping @Sendable ([[String: Any]]) -> Bool
        ) throws -> (status: Int32, events: [[String: Any]], err: String) {
            try PlaybackCommandTests.run(
                ["alarm", "07:00", "--station", station, "--output", "null", "--events", "jsonl", "--fade-in", "\(fadeIn)"],
                environment: environment, inputs: [(until, "<INT>")])
        }
    }

    static func alarms(_ events: [[String: Any]]) -> [[String: Any]] { events.filter { $0["event"] as? String == "alarm" } }
    static func alarmNames(_ events: [[String: Any]]) -> [String] { alarms(events).compactMap { $0["alarm"] as? String } }

    /// The fallback tone's state is `playing`.
    @Sendable static func tonePlays(_ events: [[String: Any]]) -> Bool {
        events.contains { $0["state"] as? String == "playing" && ($0["track"] as? [String: Any])?["id"] as? String == "alarm-tone-1" }
    }

    @Test func aDeadStationIsReplacedByTheToneAndTheFailureIsTold() throws {
        let setup = try Setup()
        let refusing = try TestHTTPServer.refusingPort()
        defer { refusing.release() }
        try setup.addStation("Dead", "http://127.0.0.1:\(refusing.port)/live")
        let r = try setup.alarm(station: "Dead", until: Self.tonePlays)
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(Self.alarmNames(r.events) == ["waiting", "sounding", "fallback", "waiting", "cancelled"], "\(Self.alarms(r.events))")
        let first = try #require(Self.alarms(r.events).first)
        #expect(first["due"] as? String == "2026-03-02T07:00:00+01:00")
        #expect((0...3).contains(first["in"] as? Double ?? -1))
        let fallback = try #require(Self.alarms(r.events).first { $0["alarm"] as? String == "fallback" })
        #expect((fallback["error"] as? [String: Any])?["code"] as? Int == PlaybackError.Code.connectionFailed.rawValue)
        // The player tried the station (and kept trying) before the tone replaced it.
        let names = PlaybackCommandTests.stateNames(r.events)
        #expect(names.contains("reconnecting"))
        #expect(Self.tonePlays(r.events))
        // It waits for tomorrow's, and Ctrl-C cancelled it cleanly: the tone faded out.
        #expect(Self.alarms(r.events)[3]["due"] as? String == "2026-03-03T07:00:00+01:00")
        #expect(names.last == "finished" || names.last == "idle")
    }

    @Test func aSilentStationIsReplacedByTheTone() throws {
        let setup = try Setup()
        let server = try IcecastServer(silent: true)
        defer { server.stop() }
        try setup.addStation("Silence", server.streamURL.absoluteString)
        // `stop` on stdin stops what sounds, not the alarm: it waits for tomorrow until Ctrl-C.
        @Sendable func stoppedAfterTheTone(_ events: [[String: Any]]) -> Bool {
            guard let tone = events.firstIndex(where: { Self.tonePlays([$0]) }) else { return false }
            return events[tone...].contains { ["finished", "idle"].contains($0["state"] as? String ?? "") }
        }
        let r = try PlaybackCommandTests.run(
            ["alarm", "07:00", "--station", "Silence", "--output", "null", "--events", "jsonl", "--fade-in", "5"],
            environment: setup.environment, inputs: [(Self.tonePlays, "stop"), (stoppedAfterTheTone, "<INT>")])
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(Self.alarmNames(r.events) == ["waiting", "sounding", "fallback", "waiting", "cancelled"], "\(Self.alarms(r.events))")
        #expect(stoppedAfterTheTone(r.events))
        let fallback = try #require(Self.alarms(r.events).first { $0["alarm"] as? String == "fallback" })
        #expect((fallback["error"] as? [String: Any])?["code"] as? Int == PlaybackError.Code.sourceSilent.rawValue)
        // The station did play: silence, not a failure to connect.
        let stationPlayed = r.events.contains { $0["state"] as? String == "playing" && ($0["track"] as? [String: Any])?["kind"] as? String == "liveStream" }
        #expect(stationPlayed)
        #expect(!Self.alarmNames(r.events).contains("sounded"))
    }

    @Test func aStationThatSoundsIsHeardAndNoToneReplacesIt() throws {
        let setup = try Setup()
        let server = try IcecastServer()
        defer { server.stop() }
        try setup.addStation("Radio", server.streamURL.absoluteString)
        let r = try setup.alarm(station: "Radio", fadeIn: 10) { events in Self.alarmNames(events).contains("sounded") }
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(Self.alarmNames(r.events).prefix(3) == ["waiting", "sounding", "sounded"], "\(Self.alarms(r.events))")
        #expect(!Self.alarmNames(r.events).contains("fallback"))
        #expect(!r.events.contains { ($0["track"] as? [String: Any])?["id"] as? String == "alarm-tone-1" })
        // It started from silence and was rising when it was heard.
        let volumes = r.events.filter { $0["event"] as? String == "volume" }.compactMap { $0["percent"] as? Int }
        #expect(volumes.contains(0))
        let afterSilence = volumes.drop { $0 != 0 }
        #expect(afterSilence.count >= 2 && afterSilence.last! > 0, "\(volumes)")
    }

    @Test func aSourceNotInTheLibraryIsRefusedAtOnce() throws {
        let setup = try Setup()
        let r = try PlaybackCommandTests.run(["alarm", "07:00", "--station", "Nowhere", "--output", "null"], environment: setup.environment)
        #expect(r.status == 1)
        #expect(r.err.contains("Not in Your Library"), "stderr: \(r.err)")
    }

    @Test(arguments: [
        (["alarm", "25:00", "--station", "X"], "time of day"),
        (["alarm", "07:00"], "one of --station"),
        (["alarm", "07:00", "--station", "X", "--days", "someday"], "--days"),
        (["alarm", "07:00", "--station", "X", "--fade-in", "301"], "--fade-in"),
        (["alarm", "07:00", "--station", "X", "--output", "wav:/tmp/x.wav"], "real time"),
        (["alarm", "--list", "--cancel", "1"], "--list and --cancel"),
    ])
    func argumentsThatMakeNoAlarmAreRefused(_ arguments: [String], _ message: String) throws {
        let r = try PlaybackCommandTests.run(arguments)
        #expect(r.status == 64)
        #expect(r.err.contains(message), "stderr: \(r.err)")
    }

    /// Waiting, it says when it sounds; SIGINT cancels it and it ends with status 0.
    @Test func waitingItSaysWhenAndCtrlCCancelsIt() throws {
        let setup = try Setup(now: "2026-03-06T05:50:00+01:00")
        try setup.addStation("Radio", "http://127.0.0.1:9/live")
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["alarm", "06:30", "--station", "Radio", "--days", "mon-fri", "--output", "null"]
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C"
        environment["LC_ALL"] = nil
        environment["XDG_STATE_HOME"] = setup.directory.appendingPathComponent("state").path
        for (key, value) in setup.environment { environment[key] = value }
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let reader = out.fileHandleForReading
        var text = ""
        while !text.contains("\n"), case let chunk = reader.availableData, !chunk.isEmpty { text += String(decoding: chunk, as: UTF8.self) }
        kill(process.processIdentifier, SIGINT)
        text += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // 2026-03-06 is a Friday: 40 minutes from 05:50.
        #expect(text.hasPrefix("Alarm: sounds Fri 2026-03-06 06:30 (in 40 min).\n"), "\(text)")
        #expect(text.contains("Alarm cancelled."), "\(text)")
        #expect(process.terminationStatus == 0)
    }
}
