import Foundation
import TestProcesses
import Testing

/// A long run holds no more memory than a short one: what an item or a dropped connection used is
/// released once it is over. Measured in a child `tonearm`, whose resident memory is read from
/// /proc while it plays; the test process itself allocates for every other test running beside it.
///
/// Resident memory moves by a few hundred KiB from one moment to the next (frames queued on a deck
/// at the instant of the reading, code pages of a debug build touched for the first time), so each
/// figure is the median of the readings at several consecutive items or reconnects, and the first
/// ones are taken once every path the run takes has been through once.
@Suite("Memory over a long run", .blocking, .serialized)
struct MemorySoakTests {
    /// 200 one-second MP3s rendered in a row to a WAV file: resident memory when the 200th starts
    /// is within 2 MB of what it was when the 10th started (gapless, and with crossfades).
    @Test(arguments: [0.0, 0.3])
    func twoHundredItemsInARowHoldNoMoreThanTen(crossfade: Double) throws {
        let fixtures = try AudioFixtures()
        let item = try fixtures.sine(.mp3, sampleRate: 48_000, seconds: 1, name: "item.mp3")
        let count = 200
        var arguments = ["play"] + Array(repeating: item.path, count: count)
        arguments += ["--output", "wav:\(fixtures.url("out.wav").path)", "--events", "jsonl"]
        if crossfade > 0 { arguments += ["--crossfade", "\(crossfade)"] }
        let player = try SoakPlayer(arguments)
        var resident: [Int: Int] = [:]
        player.readEvents { event in
            if let item = Self.itemStarted(event), resident[item] == nil { resident[item] = player.residentKiB }
            return true
        }
        let (status, errors) = player.finish()
        #expect(status == 0, "\(errors)")
        #expect(resident.count == count, "items seen starting: \(resident.keys.sorted())")
        let early = try #require(Self.median(resident, 6...10))
        let late = try #require(Self.median(resident, (count - 4)...count))
        #expect(late - early <= 2_048, "resident memory \(early) KiB at item 10, \(late) KiB at item \(count): \(Self.trace(resident))")
    }

    /// A station whose connection is cut 30 times (after ten cuts to warm up): resident memory after
    /// the 30th reconnect is within 1 MB of after the 3rd.
    ///
    /// Most cuts are mended in the background while the buffer plays (the same source asks again,
    /// through the overlap splice); the 2nd, 8th, 14th, 20th and 26th are held until the buffer has
    /// run out, so the reconnect is heard and opens the stream anew (a new deck, decoder and HTTP
    /// source). After each reconnect, half a second of the stream plays before the reading and the
    /// next cut. Ten cuts mended in the background come first, uncounted: the first twenty or so
    /// reconnects of a run raise its memory by about half a megabyte (caches filling), and it stays
    /// there for a hundred more. (Each heard reconnect spends a token of the player's reconnect
    /// budget, which refills at one every two seconds: these few stay well within it.)
    @Test func thirtyDropsAndReconnectsHoldNoMoreThanThree() throws {
        let server = try IcecastServer()
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        let warmUp = 10
        let reconnects = 30
        let player = try SoakPlayer(["play", proxy.url(IcecastServer.mount).absoluteString, "--output", "null", "--events", "jsonl"])
        enum Phase {
            case opening
            case playing(since: Double)
            /// Cut, and kept cut until the reconnect is heard.
            case heldDown
            case mending
        }
        var phase = Phase.opening
        var done = 0
        var heard = 0
        var resident: [Int: Int] = [:]
        var log: [String] = []
        player.readEvents { event in
            let t = event["t"] as? Double ?? 0
            let state = event["event"] as? String == "state" ? event["state"] as? String : nil
            if let state { log.append("\(t) \(state)") }
            if state == "failed" { return false }
            switch phase {
            case .opening:
                if state == "playing" { phase = .playing(since: t) }
            case .playing(let since):
                guard t >= since + 0.5 else { break }
                let counted = done - warmUp
                if counted > 0 { resident[counted] = player.residentKiB }
                guard counted < reconnects else {
                    player.send("stop")
                    return false
                }
                proxy.mode = .cut
                if counted % 6 == 1 {
                    phase = .heldDown
                } else {
                    proxy.mode = .pass
                    phase = .mending
                }
            case .heldDown:
                if state == "reconnecting" {
                    heard += 1
                    proxy.mode = .pass
                    phase = .mending
                }
            case .mending:
                // Mended heard or unheard, the player says it recovered.
                if event["event"] as? String == "notice", event["notice"] as? String == "recovered" {
                    done += 1
                    log.append("\(t) recovered \(done)")
                    phase = .playing(since: t)
                }
            }
            return true
        }
        let (status, errors) = player.finish()
        #expect(status == 0, "\(errors)")
        #expect(done == warmUp + reconnects && heard == 5, "reconnects \(done), heard \(heard): \(log.suffix(20))")
        let early = try #require(Self.median(resident, 1...3))
        let late = try #require(Self.median(resident, (reconnects - 2)...reconnects))
        #expect(late - early <= 1_024, "resident memory \(early) KiB after reconnect 3, \(late) KiB after \(reconnects): \(Self.trace(resident))")
    }

    /// The item (from 1) whose playing a state event begins: `argN:` is the N-th command-line
    /// source; a crossfade begins the one it fades to.
    static func itemStarted(_ event: [String: Any]) -> Int? {
        guard event["event"] as? String == "state" else { return nil }
        let track: Any? =
            switch event["state"] as? String {
            case "playing": event["track"]
            case "crossfading": event["to"]
            default: nil
            }
        guard let id = (track as? [String: Any])?["id"] as? String, id.hasPrefix("arg"), let colon = id.firstIndex(of: ":") else { return nil }
        return Int(id[id.index(id.startIndex, offsetBy: 3)..<colon])
    }

    static func median(_ readings: [Int: Int], _ range: ClosedRange<Int>) -> Int? {
        let values = range.compactMap { readings[$0] }.sorted()
        return values.isEmpty ? nil : values[values.count / 2]
    }

    static func trace(_ readings: [Int: Int]) -> String {
        readings.keys.sorted().map { "\($0): \(readings[$0]!)" }.joined(separator: ", ")
    }
}

/// A `tonearm` child whose JSON event lines are read as they come and whose resident memory is
/// read from /proc. Its stderr goes to a file, so a chatty child never blocks on a full pipe.
final class SoakPlayer: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    /// The child's own data, state and cache folders and its stderr; removed when it is done.
    private let home: URL
    private let errorFile: URL
    private let watchdog: DispatchWorkItem

    init(_ arguments: [String], timeout: Double = 300) throws {
        process.executableURL = CLITests.binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C"
        // One malloc arena: glibc otherwise gives threads arenas of their own as they come (up to
        // eight per core), each keeping the pages it touched, which over the first few dozen loads
        // adds some 2 MB and then stays. What is measured is what the player holds.
        environment["MALLOC_ARENA_MAX"] = "1"
        home = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-soak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        for (variable, folder) in [("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache")] {
            environment[variable] = home.appendingPathComponent(folder).path
        }
        process.environment = environment
        errorFile = home.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        // A hung child fails the test instead of hanging the run.
        let process = self.process
        watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    }

    /// The child's resident memory (VmRSS) in KiB; nil once it has ended.
    var residentKiB: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
    }

    /// Hands each JSON event to `body` until it returns false or the output ends.
    func readEvents(_ body: ([String: Any]) -> Bool) {
        let reader = output.fileHandleForReading
        var buffer = Data()
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { return }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                guard let event = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
                if !body(event) { return }
            }
        }
    }

    /// A command on the child's stdin.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Closes stdin, reads the output to its end, waits for the child; its status and stderr.
    func finish() -> (status: Int32, errors: String) {
        try? input.fileHandleForWriting.close()
        if process.isRunning { readEvents { _ in true } }
        process.waitUntilExit()
        watchdog.cancel()
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: home)
        return (process.terminationStatus, String(errors.suffix(2_000)))
    }
}
