import Foundation
import MPDProtocol
import TestProcesses
import Testing

@testable import Snapcast

/// `tonearm snapcast-control` as snapserver runs it, driving a real `mpd`: what the player plays
/// reaches a Snapcast control client (`Stream.OnProperties`), and Snapcast's controls reach the
/// player.
@Suite("tonearm snapcast-control", .blocking)
struct ControlScriptTests {
    static let patience: Double = 60

    /// The `tonearm` binary `swift test` builds next to the test bundle.
    static var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("tonearm").path
    }

    @Test func aTitleChangeReachesSnapcastAndItsControlsReachThePlayer() throws {
        let fixtures = try AudioFixtures()
        let mpd = try MPDDaemonProcess { music in
            for (name, title) in [("first.flac", "First Tone"), ("second.flac", "Second Tone")] {
                try fixtures.ffmpeg([
                    "-f", "lavfi", "-i", "sine=frequency=440:duration=60:sample_rate=48000", "-ac", "2", "-metadata", "title=\(title)",
                    "-metadata", "artist=Tonearm Tests", "\(music)/\(name)",
                ])
            }
        }
        let client = try MPDConnection(.tcp(host: "127.0.0.1", port: mpd.port))
        try client.run(MPDCommand("update"))
        let indexed = eventuallyBlocking(timeout: Self.patience) {
            ((try? client.run(MPDCommand("listall"))) ?? []).filter { $0.key == "file" }.count == 2
        }
        try #require(indexed, "mpd did not index the files: \(mpd.log())")
        try client.run(MPDCommand("add", ["first.flac"]))
        try client.run(MPDCommand("add", ["second.flac"]))
        try client.run(MPDCommand("play", ["0"]))

        // snapserver passes its own arguments after the script's path; the wrapper adds ours.
        let wrapper = "\(fixtures.url("tonearm-snapcast-control").path)"
        try """
            #!/bin/sh
            exec "\(Self.binary)" snapcast-control --mpd-host 127.0.0.1 --mpd-port \(mpd.port) --verbose "$@"

            """.write(toFile: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper)
        let server = try SnapServer(controlscript: wrapper)
        let control = try SnapControlClient(port: server.controlPort)

        // What plays now: snapserver asks the script at start, then shows it to every client.
        let status = #"{"id":1,"jsonrpc":"2.0","method":"Server.GetStatus"}"#
        let first = eventuallyBlocking(timeout: Self.patience, every: .milliseconds(200)) {
            control.send(status)
            return control.lines.contains { $0.contains(#""id":1"#) && $0.contains("First Tone") }
        }
        #expect(first, "the first title never showed: \(control.lines.suffix(3)) \(server.log())")

        // The title changes: a notification, unasked.
        try client.run(MPDCommand("next"))
        let changed = control.waitForLine(timeout: Self.patience) { $0.contains("Stream.OnProperties") && $0.contains("Second Tone") }
        #expect(changed != nil, "no Stream.OnProperties with the new title: \(control.lines.suffix(3)) \(server.log())")
        if let changed, let properties = JSONValue(line: changed)?["params"]?["properties"] {
            #expect(properties["playbackStatus"] == .string("playing"))
            #expect(properties["metadata"]?["artist"] == .array([.string("Tonearm Tests")]))
        }

        // Snapcast's controls drive the player: pause, then play again.
        let beforePause = control.lines.count
        control.send(#"{"id":2,"jsonrpc":"2.0","method":"Stream.Control","params":{"id":"Tonearm","command":"pause"}}"#)
        #expect(control.waitForLine(timeout: Self.patience) { $0.contains(#""id":2"#) } != nil)
        let paused = eventuallyBlocking(timeout: Self.patience) { Self.state(client) == "pause" }
        #expect(paused, "mpd did not pause: \(control.lines.suffix(3))")
        #expect(control.waitForLine(timeout: Self.patience, skipping: beforePause) { $0.contains("Stream.OnProperties") && $0.contains(#""playbackStatus":"paused""#) } != nil)
        control.send(#"{"id":3,"jsonrpc":"2.0","method":"Stream.Control","params":{"id":"Tonearm","command":"playPause"}}"#)
        #expect(eventuallyBlocking(timeout: Self.patience) { Self.state(client) == "play" })
        let seen = control.lines.count
        control.send(#"{"id":4,"jsonrpc":"2.0","method":"Stream.Control","params":{"id":"Tonearm","command":"previous"}}"#)
        #expect(control.waitForLine(timeout: Self.patience, skipping: seen) { $0.contains("Stream.OnProperties") && $0.contains("First Tone") } != nil)
    }

    static func state(_ client: MPDConnection) -> String? {
        (try? client.run(MPDCommand("status")))?.first { $0.key == "state" }?.value
    }
}
