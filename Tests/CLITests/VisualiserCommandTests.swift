import Foundation
import Synchronization
import TestProcesses
import Testing

/// `--output fifo:PATH` and `--also-output fifo:PATH` end to end: the binary, a named pipe, and a
/// reader that takes the PCM (this test, or the real visualiser cava); the level meter on a real
/// terminal.
@Suite("tonearm for visualisers", .serialized, .blocking)
struct VisualiserCommandTests {
    let directory: URL
    let tone: URL

    init() throws {
        (directory, tone) = try PlaybackCommandTests.tone(seconds: 3)
    }

    var fifo: String { directory.appendingPathComponent("tonearm.fifo").path }

    /// A blocking reader on its own thread: it opens the pipe (waiting for a writer), reads until
    /// the writers are gone or `limit` bytes came, then closes its end.
    final class Reader: @unchecked Sendable {
        private let got = Mutex(Data())
        private let done = DispatchSemaphore(value: 0)
        private let path: String

        init(_ path: String, limit: Int = .max) {
            self.path = path
            Thread { [self] in
                defer { done.signal() }
                let fd = open(path, O_RDONLY)
                guard fd >= 0 else { return }
                defer { close(fd) }
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while got.withLock({ $0.count }) < limit {
                    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { return }
                    got.withLock { $0.append(contentsOf: buffer[0..<n]) }
                }
            }.start()
        }

        /// Waits for the reader to end; a reader still waiting for a writer (the binary failed
        /// before opening the pipe) is released by a writer of our own.
        func finish() -> Data {
            if done.wait(timeout: .now() + 10) == .timedOut {
                let fd = open(path, O_WRONLY | O_NONBLOCK)
                if fd >= 0 { close(fd) }
                _ = done.wait(timeout: .now() + 10)
            }
            return got.withLock { $0 }
        }
    }

    /// The left channel of 16-bit stereo PCM.
    static func left(_ pcm: Data) -> [Int16] {
        pcm.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count - 3, by: 4).map { Int16(bitPattern: UInt16(raw[$0]) | UInt16(raw[$0 + 1]) << 8) }
        }
    }

    @Test func aReaderGetsThePCMOfTheTone() throws {
        try #require(mkfifo(fifo, 0o600) == 0)
        let reader = Reader(fifo)
        let r = try PlaybackCommandTests.run(["play", tone.path, "--output", "fifo:\(fifo)", "--events", "jsonl"])
        let pcm = reader.finish()
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(PlaybackCommandTests.stateNames(r.events).suffix(1) == ["finished"])
        // ffmpeg's sine: 440 Hz at 1/8 of full scale, made stereo at −3 dB (its mono upmix), 3 s.
        let left = Self.left(pcm)
        let sounding = left.drop { $0 == 0 }
        #expect(sounding.count > 48_000 * 2, "\(left.count) frames read")
        let peak = sounding.map { abs(Int($0)) }.max() ?? 0
        #expect(abs(peak - 2_896) < 100, "peak \(peak)")
        let second = Array(sounding.dropFirst(4_800).prefix(48_000))
        let crossings = zip(second, second.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(abs(crossings - 880) <= 4, "\(crossings) zero crossings in a second")
    }

    @Test func withoutAReaderPlaybackGoesOnAndFinishes() throws {
        let r = try PlaybackCommandTests.run(["play", tone.path, "--output", "fifo:\(fifo)", "--events", "jsonl"])
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(PlaybackCommandTests.stateNames(r.events).suffix(2) == ["fadingOut", "finished"])
        #expect(!FileManager.default.fileExists(atPath: fifo), "the FIFO it made is removed at the end")
    }

    @Test func aReaderThatLeavesNeverStopsPlayback() throws {
        try #require(mkfifo(fifo, 0o600) == 0)
        // Half a second of audio, then the reader goes away.
        let reader = Reader(fifo, limit: 96_000)
        let r = try PlaybackCommandTests.run(["play", tone.path, "--output", "fifo:\(fifo)", "--events", "jsonl"])
        #expect(reader.finish().count >= 96_000)
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(PlaybackCommandTests.stateNames(r.events).suffix(2) == ["fadingOut", "finished"])
        #expect(!r.err.contains("rror"), "stderr: \(r.err)")
    }

    @Test func aSecondOutputThatIsNoFifoIsRefused() throws {
        let r = try PlaybackCommandTests.run(["play", tone.path, "--output", "null", "--also-output", "null"])
        #expect(r.status != 0)
        #expect(r.err.contains("--also-output takes fifo:PATH"), "stderr: \(r.err)")
    }

    /// cava, the real visualiser, reads the pipe beside the null output and draws bars.
    @Test func cavaShowsBarsWhileATonePlaysBeside() throws {
        let cava = ["/usr/bin/cava", "/usr/local/bin/cava"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let binary = try #require(cava, "cava is not installed (apt-get install cava)")
        try #require(mkfifo(fifo, 0o600) == 0)
        let config = directory.appendingPathComponent("cava.conf")
        try """
            [general]
            bars = 8
            framerate = 30
            [input]
            method = fifo
            source = \(fifo)
            sample_rate = 48000
            sample_bits = 16
            [output]
            method = raw
            raw_target = /dev/stdout
            data_format = ascii
            ascii_max_range = 100
            bar_delimiter = 59
            frame_delimiter = 10
            """.write(to: config, atomically: true, encoding: .utf8)
        let bars = directory.appendingPathComponent("cava.out")
        let errors = directory.appendingPathComponent("cava.err")
        // cava before 0.9 starts its fifo thread before it sets the sample format the thread sizes
        // its buffer from; a thread that wins that race reads zero bytes forever and cava draws
        // nothing but zeros. Started first-in-first-out on one CPU, the new thread cannot run
        // before the thread that made it has set the format; both are ordinary again once cava
        // has drawn, long after the thread read the format.
        let visualiser = try ChildProcess(
            "/usr/bin/chrt", ["--fifo", "1", "/usr/bin/taskset", "--cpu-list", Self.firstAllowedCPU(), binary, "-p", config.path],
            environment: ProcessInfo.processInfo.environment, stdout: bars.path, stderr: errors.path)
        defer {
            visualiser.send(SIGTERM)
            _ = visualiser.wait(timeout: 10)
        }
        // cava plans its FFT before it draws its first (empty) frame; that takes seconds.
        let ready = eventuallyBlocking(timeout: 90) { ((try? Data(contentsOf: bars))?.count ?? 0) > 0 }
        try #require(ready, "cava drew nothing; stderr: \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
        try Self.scheduleNormally(visualiser.pid)
        // A long tone, stopped (Ctrl-C) once cava has drawn bars for a while: cava may take a
        // moment to open the pipe and to settle its sensitivity.
        let (dir, long) = try PlaybackCommandTests.tone(seconds: 30)
        defer { try? FileManager.default.removeItem(at: dir) }
        @Sendable func lit() -> Int {
            let frames = ((try? String(contentsOf: bars, encoding: .utf8)) ?? "").split(separator: "\n")
            return frames.filter { $0.split(separator: ";").contains { Int($0) ?? 0 > 0 } }.count
        }
        let r = try PlaybackCommandTests.run(
            ["play", long.path, "--output", "null", "--also-output", "fifo:\(fifo)", "--events", "jsonl"],
            inputs: [({ _ in lit() > 10 }, "<INT>")])
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(PlaybackCommandTests.stateNames(r.events).suffix(2) == ["fadingOut", "finished"])
        #expect(lit() > 10, "\(lit()) frames with bars")
    }

    /// The first CPU this process may run on, as `taskset --cpu-list` takes it.
    static func firstAllowedCPU() throws -> String {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        let list = line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
        return String(try #require(list.split(whereSeparator: { $0 == "," || $0 == "-" }).first))
    }

    /// Puts every thread of `pid` back under the ordinary time-sharing scheduler.
    static func scheduleNormally(_ pid: pid_t) throws {
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        for thread in threads.compactMap({ pid_t($0) }) {
            var parameters = sched_param(sched_priority: 0)
            try #require(sched_setscheduler(thread, SCHED_OTHER, &parameters) == 0, "thread \(thread): errno \(errno)")
        }
    }

    /// `v` on Now Playing shows the meter with the tone's level, and hides it again.
    @Test func theLevelMeterShowsOnAKey() throws {
        let (dir, long) = try PlaybackCommandTests.tone(seconds: 30)
        defer { try? FileManager.default.removeItem(at: dir) }
        let terminal = try TmuxSession(
            [CLITests.binary.path, "play", long.path, "--output", "null"], width: 100, height: 30,
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "XDG_DATA_HOME": directory.appendingPathComponent("data").path])
        let playing = try terminal.waitFor(timeout: 30) { $0.contains("● Playing") }
        try #require(playing.matched, "screen:\n\(playing.screen)")
        #expect(!playing.screen.contains(" dB"))
        try terminal.send("v")
        // ffmpeg's sine peaks at 1/8 of full scale, −3 dB made stereo: −21 dB.
        let shown = try terminal.waitFor(timeout: 15) { $0.contains("−21 dB") && $0.contains("L ██") && $0.contains("R ██") }
        #expect(shown.matched, "screen:\n\(shown.screen)")
        try terminal.send("v")
        let hidden = try terminal.waitFor(timeout: 15) { !$0.contains(" dB") }
        #expect(hidden.matched, "screen:\n\(hidden.screen)")
        try terminal.send("q")
        _ = try terminal.waitFor(timeout: 15) { _ in (try? terminal.paneIsDead()) == true }
    }
}
