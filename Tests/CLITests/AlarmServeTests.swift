import Foundation
import PlayerCore
import TestProcesses
import Testing

/// `tonearm alarm` while `tonearm serve` runs: the command hands the alarm to the daemon and
/// ends; the daemon sounds it on its own output at its time (by the test seam's clock, which both
/// processes share); `--list` and `--cancel` see and change what the daemon keeps.
@Suite("tonearm alarm with a daemon", .blocking)
struct AlarmServeTests {
    static let zone = TimeZone(identifier: "Europe/Berlin")!

    /// Runs a command and returns what it printed.
    static func run(_ arguments: [String], environment extra: [String: String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C"
        environment["LC_ALL"] = nil
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output, errors)
    }

    /// `HH:MM:SS` of `date` on Berlin's wall clock.
    static func timeOfDay(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    @Test func theDaemonTakesTheAlarmSoundsItAndListsAndCancelsIt() throws {
        let server = try IcecastServer()
        defer { server.stop() }
        let music = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-alarm-music-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: music) }
        let home = ServeDaemon.newHome()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-alarm-serve-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let fakeStart = ISO8601DateFormatter().date(from: "2026-03-02T06:50:00+01:00")!
        let launched = Date()
        let clock = ["TZ": "Europe/Berlin", "TONEARM_TEST_NOW": "2026-03-02T06:50:00+01:00"]
        let daemon = try ServeDaemon(["--log-file", log.path, "--log-level", "info"], music: music, environment: clock, home: home)
        defer { daemon.stop() }
        // The commands share the daemon's library, runtime directory and clock.
        var environment = clock
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = daemon.runtime.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent("state-commands").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        #expect(try Self.run(["station", "add", "Radio", server.streamURL.absoluteString], environment: environment).status == 0)

        // The daemon's clock reads at most the fake start plus the time since it was launched: an
        // alarm eight seconds after that is still ahead of it.
        let due = Self.timeOfDay(fakeStart.addingTimeInterval(Date().timeIntervalSince(launched) + 8))
        let set = try Self.run(["alarm", due, "--station", "Radio", "--fade-in", "2"], environment: environment)
        #expect(set.status == 0, "stderr: \(set.err)")
        #expect(set.out.contains("The tonearm daemon (pid \(daemon.process.processIdentifier)) will sound alarm 1"), "\(set.out)")

        let listed = try Self.run(["alarm", "--list", "--json"], environment: environment)
        let alarms = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]], "\(listed.out)")
        #expect(alarms.count == 1)
        #expect(alarms.first?["id"] as? Int == 1)
        #expect(alarms.first?["time"] as? String == due)
        #expect((alarms.first?["source"] as? [String: Any])?["station"] as? String == "Radio")

        // The daemon sounds it through its own output and hears the station.
        func logText() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        #expect(eventuallyBlocking(timeout: 60) { logText().contains("alarm heard") }, "\(logText())\n\(daemon.stderr)")
        #expect(logText().contains("alarm sounding"))
        #expect(!logText().contains("tone instead"))
        let status = try daemon.client().status()
        #expect(status["state"] == "play", "\(status)")

        let cancelled = try Self.run(["alarm", "--cancel", "1"], environment: environment)
        #expect(cancelled.status == 0, "stderr: \(cancelled.err)")
        #expect(cancelled.out.contains("Alarm 1 removed."))
        #expect(try Self.run(["alarm", "--list"], environment: environment).out.contains("No alarms."))
        // The daemon let go of it.
        #expect(eventuallyBlocking(timeout: 30) { logText().contains("alarms loaded count=0") }, "\(logText())")
        #expect(try Self.run(["alarm", "--cancel", "1"], environment: environment).status == 1)
        #expect(daemon.stop() == 0)
    }
}
