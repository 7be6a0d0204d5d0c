import Foundation
import Synchronization
import TestProcesses
import Testing

/// Retries that learn, for stations, through the binary: a library station that keeps failing to
/// start costs each `tonearm play --station` its reconnects until it has failed the configured
/// number of runs; then it gets one try, `tonearm errors` says it is usually unreachable, and its
/// first answer puts it back to the usual retries.
@Suite("tonearm: stations that learn", .serialized, .blocking)
struct StationLearnedRetryCommandTests {
    @Test func aDeadStationGetsOneTryUntilItAnswers() throws {
        let dead = Mutex(true)
        let audio = DownloadCommandTests.wav(seconds: 30)
        let server = try TestHTTPServer { request in
            if dead.withLock({ $0 }) { return .init(status: 503, headers: [("Content-Length", "0")]) }
            return .complete(contentType: "audio/wav", body: audio)
        }
        defer { server.stop() }
        let home = LibraryCommandTests.dataHome()
        let config = try LearnedRetryCommandTests.quickToLearn()
        defer { [home, config].forEach { try? FileManager.default.removeItem(at: $0) } }
        let environment = ["XDG_CONFIG_HOME": config.path, "XDG_DATA_HOME": home.path]
        let added = try CLITests.run(["station", "add", "Dead FM", server.url("/live").absoluteString], dataHome: home, environment: environment)
        #expect(added.status == 0, "stderr: \(added.err)")

        func play(until: [(when: @Sendable ([[String: Any]]) -> Bool, line: String)] = []) throws -> (names: [String], err: String) {
            let r = try PlaybackCommandTests.run(
                ["play", "--station", "Dead FM", "--output", "null", "--events", "jsonl", "--give-up-after", "2"], environment: environment,
                inputs: until)
            return (PlaybackCommandTests.stateNames(r.events), r.err)
        }
        // Two runs with the whole backoff: each reconnects, then gives up.
        for run in 1...2 {
            let r = try play()
            #expect(r.names.contains("reconnecting") && r.names.contains("failed"), "run \(run): \(r.names) \(r.err)")
        }
        var errors = try CLITests.run(["errors"], dataHome: home, environment: environment)
        #expect(errors.out.contains("Usually unreachable") && errors.out.contains("station Dead FM"), "\(errors.out)")

        // The third: one try, no reconnect.
        let once = try play()
        #expect(once.names.contains("failed") && !once.names.contains("reconnecting"), "\(once.names) \(once.err)")

        // It answers again: heard at its one try, and back to the usual retries at once.
        dead.withLock { $0 = false }
        let heard = try play(until: [({ PlaybackCommandTests.stateNames($0).contains("playing") }, "stop")])
        #expect(heard.names.contains("playing"), "\(heard.names) \(heard.err)")
        errors = try CLITests.run(["errors"], dataHome: home, environment: environment)
        #expect(errors.out.contains("Nothing is usually unreachable") && !errors.out.contains("station Dead FM"), "\(errors.out)")
        dead.withLock { $0 = true }
        let again = try play()
        #expect(again.names.contains("reconnecting"), "a station that answered gets its reconnects back: \(again.names)")
    }
}
