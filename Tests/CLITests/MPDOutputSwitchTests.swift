import Foundation
import TestProcesses
import Testing

/// `enableoutput`, `disableoutput` and `toggleoutput` really turn Tonearm's outputs off and on,
/// driven by the real mpc: an output turned off is closed (a FIFO's reader sees its end), one
/// turned on again gets the audio that plays from then on, and playback goes on at its pace with
/// the main output off.
@Suite("MPD outputs turned off and on", .serialized)
struct MPDOutputSwitchTests {
    /// A non-blocking reader of the daemon's FIFO: what a visualiser would be.
    final class FifoReader {
        let descriptor: Int32

        init(_ path: String) throws {
            descriptor = open(path, O_RDONLY | O_NONBLOCK)
            guard descriptor >= 0 else { throw CocoaError(.fileReadNoPermission) }
        }

        deinit { close(descriptor) }

        /// Bytes read now (draining what the pipe holds), 0 at the end (no writer left), nil when
        /// the pipe is empty but still has a writer.
        func read() -> Int? {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var total = 0
            while true {
                let n = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
                if n > 0 {
                    total += n
                    continue
                }
                if n == 0 { return total > 0 ? total : 0 }
                return total > 0 ? total : nil
            }
        }
    }

    @Test func mpcTurnsTheFifoAndTheMainOutputOffAndOn() throws {
        let music = try MPDClientTests.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let fifo = music.appendingPathComponent("visualiser.fifo").path
        let daemon = try ServeDaemon(["--also-output", "fifo:\(fifo)"], music: music)
        let client = try daemon.client()
        #expect(try daemon.mpc("add", "Music/Album").status == 0)
        #expect(try daemon.mpc("play").status == 0)
        #expect(eventuallyBlocking(timeout: 15) { FileManager.default.fileExists(atPath: fifo) }, "\(daemon.logTail)")

        let first = try FifoReader(fifo)
        #expect(eventuallyBlocking(timeout: 15) { (first.read() ?? 0) > 0 }, "audio reaches the FIFO: \(daemon.logTail)")

        // Off: the sink closes its end (and removes the FIFO it made), so the reader sees the end.
        #expect(try daemon.mpc("disable", "2").status == 0)
        #expect(eventuallyBlocking(timeout: 15) { first.read() == 0 }, "the FIFO's reader sees its end: \(daemon.logTail)")
        #expect(!FileManager.default.fileExists(atPath: fifo))
        let outputs = try daemon.mpc("outputs").out
        #expect(outputs.contains("Output 1 (null output) is enabled"), "\(outputs)")
        #expect(outputs.contains("Output 2 (FIFO \(fifo)) is disabled"), "\(outputs)")
        #expect(try client.status()["state"] == "play")

        // On again: the FIFO is back, and what plays from now on reaches a new reader.
        #expect(try daemon.mpc("enable", "2").status == 0)
        #expect(eventuallyBlocking(timeout: 15) { FileManager.default.fileExists(atPath: fifo) }, "\(daemon.logTail)")
        let second = try FifoReader(fifo)
        #expect(eventuallyBlocking(timeout: 15) { (second.read() ?? 0) > 0 }, "audio reaches the FIFO again: \(daemon.logTail)")

        // The main output off: playback goes on at its pace (the clock runs, the FIFO still gets
        // audio), and the log says the output was closed.
        let before = try #require(Double(try client.status()["elapsed"] ?? ""))
        #expect(try daemon.mpc("toggleoutput", "1").status == 0)
        #expect(try daemon.mpc("outputs").out.contains("Output 1 (null output) is disabled"))
        #expect(
            eventuallyBlocking(timeout: 15) { (try? client.status()["elapsed"]).flatMap { $0.flatMap(Double.init) }.map { $0 > before + 1 } ?? false },
            "the clock goes on with the main output off")
        #expect(eventuallyBlocking(timeout: 15) { (second.read() ?? 0) > 0 }, "the other output still plays")
        #expect(eventuallyBlocking(timeout: 15) { daemon.logTail.contains("output turned off") }, "\(daemon.logTail)")
        #expect(try client.status()["state"] == "play")
        #expect(try daemon.mpc("toggleoutput", "1").status == 0)
        #expect(try daemon.mpc("outputs").out.contains("Output 1 (null output) is enabled"))
        #expect(eventuallyBlocking(timeout: 15) { daemon.logTail.contains("output turned on") }, "\(daemon.logTail)")
    }
}
