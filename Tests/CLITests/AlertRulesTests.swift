import Foundation
import TestProcesses
import Testing

/// The alerting rules in contrib/prometheus, checked and unit-tested by Prometheus's own
/// `promtool`: each alert fires on its recorded trouble and stays quiet on a healthy series
/// (tonearm.rules.test.yml).
@Suite("Prometheus alerting rules", .blocking)
struct AlertRulesTests {
    static var folder: URL { CLITests.packageRoot.appendingPathComponent("contrib/prometheus") }

    static func promtool(_ arguments: [String]) throws -> (status: Int32, out: String) {
        let process = Process()
        let promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) }
        process.executableURL = URL(fileURLWithPath: try #require(promtool, "promtool is not installed (apt-get install prometheus)"))
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func theRulesAreValid() throws {
        let checked = try Self.promtool(["check", "rules", "tonearm.rules.yml"])
        #expect(checked.status == 0, "\(checked.out)")
        #expect(checked.out.contains("SUCCESS: 5 rules found"), "\(checked.out)")
    }

    @Test func eachAlertFiresOnTroubleAndStaysQuietOtherwise() throws {
        let tested = try Self.promtool(["test", "rules", "tonearm.rules.test.yml"])
        #expect(tested.status == 0, "\(tested.out)")
        // Every alert of the rules has a test that expects it to fire.
        let rules = try String(contentsOf: Self.folder.appendingPathComponent("tonearm.rules.yml"), encoding: .utf8)
        let tests = try String(contentsOf: Self.folder.appendingPathComponent("tonearm.rules.test.yml"), encoding: .utf8)
        let alerts = rules.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("- alert: ") ? String(trimmed.dropFirst("- alert: ".count)) : nil
        }
        #expect(alerts.count == 5, "\(alerts)")
        for alert in alerts {
            #expect(tests.contains("alertname: \(alert)\n        exp_alerts:\n          - exp_labels"), "\(alert) is never expected to fire")
        }
    }
}
