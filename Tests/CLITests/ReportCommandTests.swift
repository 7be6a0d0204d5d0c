import Foundation
import TestProcesses
import Testing

/// `tonearm report` with canaries planted everywhere a listener's data could come from: a sync
/// password in the configuration, a station whose address carries a token, a home directory and a
/// user name in the paths, and log lines that leaked all of them. The archive holds the parts it
/// lists, and none of the canaries.
@Suite("tonearm report", .serialized, .blocking)
struct ReportCommandTests {
    static let password = "Canary-Pass-6Q9"
    static let token = "Canary-Token-71"
    static let stationHost = "canary-station.example"

    @Test func theArchiveHoldsWhatItListsAndNothingPersonal() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-report-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appendingPathComponent("home/canaryuser")
        let (data, config, state) = (home.appendingPathComponent(".local/share"), home.appendingPathComponent(".config"), home.appendingPathComponent(".local/state"))
        for folder in [data, config.appendingPathComponent("tonearm"), state.appendingPathComponent("tonearm"), home.appendingPathComponent("Music")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try "[sync]\npassword = \"\(Self.password)\"\n\n[keys]\nquit = \"q\"\n"
            .write(to: config.appendingPathComponent("tonearm/config.toml"), atomically: true, encoding: .utf8)
        let environment = [
            "HOME": home.path, "USER": "canaryuser", "XDG_CONFIG_HOME": config.path, "XDG_STATE_HOME": state.path,
        ]
        func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
            try CLITests.run(arguments, dataHome: data, environment: environment)
        }
        let stationURL = "http://\(Self.stationHost):8000/live.mp3?token=\(Self.token)"
        #expect(try run(["station", "add", "Canary FM", stationURL]).status == 0)

        // A playback that fails: its states go to the failure timeline.
        let song = home.appendingPathComponent("Music/canary-song.flac")
        try Data(repeating: 0x5A, count: 4_096).write(to: song)
        let played = try run(["play", song.path, "--output", "null"])
        #expect(played.status != 0)
        // Log lines that leaked what they must not (as an older version or a debug run might have).
        let log = state.appendingPathComponent("tonearm/tonearm.log")
        let now = ISO8601DateFormatter.withFractions.string(from: Date())
        let leaked = "\(now) warning tonearm [Test] leaked url=\(stationURL) file=\(song.path) password=\(Self.password) user=canaryuser\n"
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        handle.write(Data(leaked.utf8))
        try handle.close()

        let archive = root.appendingPathComponent("report.tar.gz")
        let reported = try run(["report", "--output", archive.path])
        #expect(reported.status == 0, "stderr: \(reported.err)")
        let parts = ["versions.txt", "audio.txt", "analytics.json", "config.toml", "last-failure.json", "tonearm.log"]
        // The list comes before the archive is written, each part named.
        let listed = try #require(reported.out.range(of: "Wrote "), "\(reported.out)")
        for part in parts { #expect(reported.out[..<listed.lowerBound].contains(part), "\(part) not listed: \(reported.out)") }

        let unpacked = root.appendingPathComponent("unpacked")
        try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tar.arguments = ["tar", "-xzf", archive.path, "-C", unpacked.path]
        try tar.run()
        tar.waitUntilExit()
        #expect(tar.terminationStatus == 0)
        var everything = ""
        for part in parts {
            let text = try String(contentsOf: unpacked.appendingPathComponent("tonearm-report/\(part)"), encoding: .utf8)
            #expect(!text.isEmpty, "\(part) is empty")
            everything += text
        }
        for canary in [Self.password, Self.token, Self.stationHost, "canaryuser", "canary-song", "live.mp3", home.path, "/home/"] {
            #expect(!everything.contains(canary), "\(canary) is in the report")
        }
        // And it is useful: the failure's states, the leaked line kept with its secrets taken out,
        // the configuration with its keys, the error summary.
        let timeline = try String(contentsOf: unpacked.appendingPathComponent("tonearm-report/last-failure.json"), encoding: .utf8)
        #expect(timeline.contains("\"failed\""), "\(timeline)")
        let kept = try String(contentsOf: unpacked.appendingPathComponent("tonearm-report/tonearm.log"), encoding: .utf8)
        #expect(kept.contains("leaked url=<address> file=<home> password=<secret> user=<user>"), "\(kept)")
        let configuration = try String(contentsOf: unpacked.appendingPathComponent("tonearm-report/config.toml"), encoding: .utf8)
        #expect(configuration.contains("password = \"<removed>\"") && configuration.contains("quit = \"q\""), "\(configuration)")
        let analytics = try String(contentsOf: unpacked.appendingPathComponent("tonearm-report/analytics.json"), encoding: .utf8)
        #expect(analytics.contains("totalErrors"), "\(analytics)")
    }
}

extension ISO8601DateFormatter {
    fileprivate static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
