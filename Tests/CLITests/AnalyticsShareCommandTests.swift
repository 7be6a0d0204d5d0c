import AnalyticsSharing
import Foundation
import Library
import PlayerCore
import TestProcesses
import Testing

/// Opt-in sharing through the binary: consent is off until the listener turns it on, is never
/// asked for without a terminal, and a running `tonearm serve` with an endpoint in config.toml
/// sends the whole hours since the answer to a real OTLP/HTTP receiver.
@Suite("tonearm analytics share", .serialized, .blocking)
struct AnalyticsShareCommandTests {
    @Test func sharingIsOffUntilTurnedOnAndNeverAskedWithoutATerminal() throws {
        let home = LibraryCommandTests.dataHome()
        let config = LibraryCommandTests.dataHome()
        defer { [home, config].forEach { try? FileManager.default.removeItem(at: $0) } }
        let environment = ["XDG_CONFIG_HOME": config.path]
        func share(_ words: String...) throws -> String {
            let result = try CLITests.run(["analytics", "share"] + words, dataHome: home, environment: environment)
            #expect(result.status == 0, "stderr: \(result.err)")
            return result.out
        }

        for _ in 0..<2 {
            let shown = try share()
            #expect(shown.contains("Sharing error counts: off (never answered"), "\(shown)")
        }
        #expect(try share("status").contains("Endpoint: none"))
        #expect(try share("on").contains("Sharing error counts: on"))
        #expect(try share().contains("Sharing error counts: on"), "an answer given is not asked again")
        #expect(try share("off").contains("Sharing error counts: off\n"))

        try FileManager.default.createDirectory(at: config.appendingPathComponent("tonearm"), withIntermediateDirectories: true)
        try "[analytics]\nendpoint = \"http://127.0.0.1:4318\"\neveryHours = 6\n"
            .write(to: config.appendingPathComponent("tonearm/config.toml"), atomically: true, encoding: .utf8)
        let configured = try share("status")
        #expect(configured.contains("Endpoint: http://127.0.0.1:4318/v1/metrics"), "\(configured)")
        #expect(configured.contains("At most every: 6 h"), "\(configured)")
    }

    @Test func aRunningDaemonSendsTheWholeHoursSinceTheAnswer() async throws {
        let receiver = try OTLPReceiver()
        let home = ServeDaemon.newHome()
        let music = home.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home.appendingPathComponent("config/tonearm"), withIntermediateDirectories: true)
        try "[analytics]\nendpoint = \"\(receiver.endpoint)\"\n"
            .write(to: home.appendingPathComponent("config/tonearm/config.toml"), atomically: true, encoding: .utf8)

        // The answer three hours ago, and errors in the two whole hours since.
        let thisHour = HourlyErrorCount.hourStart(of: Date())
        let store = try LibraryStore.open(directory: home.appendingPathComponent("data/tonearm"))
        try store.setAnalyticsSharing(AnalyticsSharingState().granted(at: thisHour.addingTimeInterval(-3 * 3600 + 60)))
        let timeout = PlaybackError(.connectionTimeout, host: "canary-host.example")
        for minutes in [-110.0, -70, -65] {
            try await store.errorEvents.append(ErrorEvent(timeout, operation: "playStation", timestamp: thisHour.addingTimeInterval(minutes * 60)))
        }

        let daemon = try ServeDaemon([], music: music, home: home)
        defer { daemon.stop() }
        #expect(eventuallyBlocking(timeout: 30) { !receiver.requests().isEmpty }, "nothing sent: \(daemon.logTail)\n\(receiver.log())")
        let request = try #require(receiver.requests().first)
        let text = String(decoding: try JSONSerialization.data(withJSONObject: request.decoded ?? [:]), as: UTF8.self)
        #expect(text.contains("Network.timeout") && text.contains("tonearm.errors"), "\(text)")
        #expect(!text.contains("canary") && request.body.range(of: Data("canary".utf8)) == nil)
        #expect(receiver.requests().count == 1)

        let status = try CLITests.run(
            ["analytics", "share", "status"], dataHome: home.appendingPathComponent("data"),
            environment: ["XDG_CONFIG_HOME": home.appendingPathComponent("config").path])
        #expect(status.out.contains("Last accepted:") && status.out.contains("Hours sent up to:"), "\(status.out)")
    }
}
