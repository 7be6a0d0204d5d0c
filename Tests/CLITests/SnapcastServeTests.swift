import Foundation
import TestProcesses
import Testing

/// `tonearm serve` as a Snapcast source, and `tonearm snapcast-control` driving it: the daemon
/// feeds a real snapserver's TCP source, the controlscript (started by snapserver) reaches the
/// daemon through its own socket, a title change reaches a Snapcast control client, and
/// Snapcast's pause reaches the daemon.
@Suite("tonearm serve with Snapcast", .serialized, .blocking)
struct SnapcastServeTests {
    static let patience: Double = 60

    @Test func theDaemonFeedsSnapcastAndSnapcastControlsTheDaemon() throws {
        let music = try MPDClientTests.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-snapserve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        // snapserver starts the controlscript with its own arguments only; the wrapper names the
        // daemon's socket, known before the daemon starts (the script connects once it answers).
        let home = ServeDaemon.newHome()
        let wrapper = scratch.appendingPathComponent("tonearm-snapcast-control")
        try """
            #!/bin/sh
            exec "\(CLITests.binary.path)" snapcast-control --mpd-host "\(ServeDaemon.socket(home: home))" --verbose "$@"

            """.write(to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)

        let server = try SnapServer(controlscript: wrapper.path)
        defer { server.stop() }
        let daemon = try ServeDaemon(["--output", "snapcast:\(server.sourceAddress)"], music: music, replacingOutput: true, home: home)
        let client = try daemon.client()
        #expect(try daemon.mpc("add", "Music/Album").status == 0)
        #expect(try daemon.mpc("play").status == 0)
        #expect(eventuallyBlocking(timeout: Self.patience) { (try? client.status()["tonearm_state"]) == "playing" }, "\(daemon.stderr)")

        let control = try SnapControlClient(port: server.controlPort)
        let status = #"{"id":1,"jsonrpc":"2.0","method":"Server.GetStatus"}"#
        let first = eventuallyBlocking(timeout: Self.patience, every: .milliseconds(200)) {
            control.send(status)
            return control.lines.contains { $0.contains(#""id":1"#) && $0.contains(#""title":"first""#) }
        }
        #expect(first, "the title never reached Snapcast: \(control.lines.suffix(2)) \(server.log())")
        // The stream is fed: snapserver sees its source playing (it says so once data has come
        // in for a while, which may be after the title: asked again until it does).
        let fed = eventuallyBlocking(timeout: Self.patience, every: .milliseconds(200)) {
            control.send(status)
            return control.lines.contains { $0.contains(#""id":1"#) && $0.contains(#""status":"playing""#) }
        }
        #expect(fed, "\(control.lines.suffix(1))")

        #expect(try daemon.mpc("next").status == 0)
        let changed = control.waitForLine(timeout: Self.patience) { $0.contains("Stream.OnProperties") && $0.contains(#""title":"second""#) }
        #expect(changed != nil, "no Stream.OnProperties with the new title: \(control.lines.suffix(3))")

        control.send(#"{"id":2,"jsonrpc":"2.0","method":"Stream.Control","params":{"id":"Tonearm","command":"pause"}}"#)
        #expect(eventuallyBlocking(timeout: Self.patience) { (try? client.status()["state"]) == "pause" })
        control.send(#"{"id":3,"jsonrpc":"2.0","method":"Stream.Control","params":{"id":"Tonearm","command":"play"}}"#)
        #expect(eventuallyBlocking(timeout: Self.patience) { (try? client.status()["tonearm_state"]) == "playing" })
        #expect(daemon.stop() == 0)
    }
}
