import Foundation
import TestProcesses
import Testing

/// A seek in a network episode, seen from outside: the JSON events say `seeking` with where the
/// listener was and the target while the server takes its time, then `playing` from the target.
@Suite("tonearm seek in a network episode", .serialized, .blocking)
struct SeekCommandTests {
    @Test func aSlowRangedAnswerIsShownAsSeekingThenPlaysFromTheTarget() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 60)
        defer { try? FileManager.default.removeItem(at: dir) }
        let audio = try Data(contentsOf: file)
        // The first answers (the header, the start) come at once; any answer from further in
        // waits a second and a half before its first byte, as a far-away server would.
        let server = try TestHTTPServer { request in
            var response = TestHTTPServer.Response.file(audio, for: request, contentType: "audio/flac")
            if let start = TestHTTPServer.Response.requestedStart(request), start > audio.count / 4 {
                response.body.insert(.pause(1.5), at: 0)
            }
            return response
        }
        defer { server.stop() }
        let r = try PlaybackCommandTests.run(
            ["play", "--finite", server.url("/episode.flac").absoluteString, "--output", "null", "--events", "jsonl"],
            inputs: [
                ({ events in events.contains { ($0["position"] as? Double ?? 0) >= 1 } }, "seek 40"),
                ({ events in events.contains { ($0["position"] as? Double ?? 0) >= 41 } }, "stop"),
            ])
        #expect(r.status == 0, "stderr: \(r.err)")
        let names = PlaybackCommandTests.stateNames(r.events)
        #expect(names.contains("seeking"), "states: \(names)")
        let seeking = r.events.first { $0["state"] as? String == "seeking" }
        #expect(seeking?["to"] as? Double == 40)
        #expect((seeking?["from"] as? Double).map { $0 >= 1 && $0 < 5 } == true, "\(String(describing: seeking))")
        let after = names.drop { $0 != "seeking" }.dropFirst().first
        #expect(after == "playing", "states: \(names)")
    }
}
