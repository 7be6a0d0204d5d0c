import Foundation
import PlayerCore
import TestProcesses
import Testing

/// `tonearm play URL` headless, as scripts use it: JSONL states and metadata lines from a real
/// Icecast, and the countdown commands (`retry` means retry now, `stop` gives up).
@Suite("tonearm play URL", .blocking)
struct RadioCommandTests {
    @Test func playsAnIcecastMountAndPrintsMetadataLines() throws {
        let server = try IcecastServer()
        defer { server.stop() }
        let title = Thread {
            // Set a title once the player listens; the line must come back as a metadata event.
            _ = eventuallyBlocking(timeout: 60, every: .milliseconds(100)) { (server.listeners() ?? 0) > 0 }
            try? server.setTitle("Night Band - Slow Song")
        }
        title.start()
        let r = try PlaybackCommandTests.run(
            ["play", server.streamURL.absoluteString, "--output", "null", "--events", "jsonl"],
            inputs: [
                // Stop once the title came back and the stream plays: the title travels with the
                // first bytes, and on a slow machine it can arrive while the player still buffers.
                ({ events in
                    events.contains { $0["event"] as? String == "metadata" && $0["title"] as? String == "Slow Song" }
                        && events.contains { $0["event"] as? String == "state" && $0["state"] as? String == "playing" }
                }, "stop")
            ])
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(PlaybackCommandTests.stateNames(r.events).prefix(2) == ["idle", "preparing"])
        #expect(PlaybackCommandTests.stateNames(r.events).contains("playing"))
        // The user's stop fades out; a live stream never "finished playing" by itself.
        #expect(PlaybackCommandTests.stateNames(r.events).suffix(2) == ["fadingOut", "finished"])
        #expect(!r.events.contains { $0["notice"] as? String == "trackFinished" })
        let song = r.events.first { $0["event"] as? String == "metadata" && $0["title"] as? String == "Slow Song" }
        #expect(song?["artist"] as? String == "Night Band")
        #expect(song?["station"] as? String == IcecastServer.stationName)
        #expect(["real", "station", "default"].contains(song?["artwork"] as? String ?? ""))
    }

    /// `--buffer 3` holds three seconds of the stream before it sounds, which its connection
    /// events show; the default holds about one. The connection events carry the bitrate the
    /// stream's frames state (the test source sends 320 kbit/s).
    @Test func aLargerBufferIsHeldAndTheConnectionEventsSayHowMuch() throws {
        let server = try IcecastServer()
        defer { server.stop() }
        @Sendable func connections(_ events: [[String: Any]]) -> [[String: Any]] { events.filter { $0["event"] as? String == "connection" } }
        let r = try PlaybackCommandTests.run(
            ["play", server.streamURL.absoluteString, "--output", "null", "--events", "jsonl", "--buffer", "3"],
            inputs: [({ events in connections(events).count >= 3 }, "stop")])
        #expect(r.status == 0, "stderr: \(r.err)")
        let seen = connections(r.events)
        #expect(seen.allSatisfy { $0["bitrate"] as? Int == 320 }, "\(seen)")
        #expect(seen.contains { ($0["buffered"] as? Double ?? 0) >= 2.5 }, "\(seen)")
        #expect(seen.allSatisfy { $0["reconnecting"] as? Bool == false && $0["quality"] as? String == "good" }, "\(seen)")
    }

    @Test func aBufferOutsideItsRangeIsRefused() throws {
        let r = try PlaybackCommandTests.run(["play", "http://127.0.0.1:9/live", "--output", "null", "--buffer", "0.5"])
        #expect(r.status == 64)
        #expect(r.err.contains("--buffer must be between 1 and 30 seconds"), "stderr: \(r.err)")
    }

    @Test func retryDuringTheCountdownRetriesNowAndStopGivesUp() throws {
        let refusing = try TestHTTPServer.refusingPort()
        defer { refusing.release() }
        let port = refusing.port
        @Sendable func reconnects(_ n: Int) -> @Sendable ([[String: Any]]) -> Bool {
            { events in
                Set(events.compactMap { $0["state"] as? String == "reconnecting" ? $0["attempt"] as? Int : nil }).count >= n
            }
        }
        let r = try PlaybackCommandTests.run(
            ["play", "http://127.0.0.1:\(port)/live", "--output", "null", "--events", "jsonl"],
            inputs: [(reconnects(1), "retry"), (reconnects(2), "stop")])
        #expect(r.status == 0, "stderr: \(r.err)")
        let reconnecting = r.events.filter { $0["state"] as? String == "reconnecting" }
        let first = try #require(reconnecting.first)
        #expect(first["maxAttempts"] as? Int == BackoffPolicy.reconnect.maxAttempts)
        #expect((first["retryIn"] as? Double ?? 0) > 0)
        #expect((first["cause"] as? [String: Any])?["code"] as? Int == PlaybackError.Code.connectionFailed.rawValue)
        // "retry" made attempt 1 at once: a new connection before its countdown ran out.
        let names = PlaybackCommandTests.stateNames(r.events)
        #expect(names.starts(with: ["idle", "preparing", "reconnecting", "preparing", "reconnecting"]))
        #expect(names.last == "idle")
    }
}
