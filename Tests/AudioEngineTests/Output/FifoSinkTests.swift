import Foundation
import PlayerCore
import Testing

@testable import AudioEngine

/// The FIFO output with a real pipe and a real reader in this process: what a reader gets is the
/// 16-bit PCM of what was written, a missing reader or one that leaves never blocks or fails a
/// write, and a full pipe keeps the newest audio.
@Suite("FIFO sink")
struct FifoSinkTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    var path: String { directory.appendingPathComponent("out.fifo").path }

    /// Interleaved stereo: left a 1 kHz sine at half scale, right its negation.
    static func tone(frames: Int, from start: Int = 0) -> [Float] {
        (0..<frames).flatMap { i -> [Float] in
            let s = Float(0.5 * sin(2 * Double.pi * 1_000 * Double(start + i) / 48_000))
            return [s, -s]
        }
    }

    static func write(_ samples: [Float], to sink: FifoSink, block: Int = 480) throws {
        var frame = 0
        let frames = samples.count / 2
        while frame < frames {
            let n = min(block, frames - frame)
            try samples.withUnsafeBufferPointer { try sink.write($0.baseAddress! + frame * 2, frames: n) }
            frame += n
        }
    }

    /// Everything the pipe holds now, as 16-bit samples.
    static func readAvailable(_ fd: Int32) -> [Int16] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            guard got > 0 else { break }
            bytes += buffer[0..<got]
        }
        return stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    @Test func aReaderGetsTheSixteenBitPCMOfWhatWasWritten() throws {
        let sink = FifoSink(path: path, realtime: false)
        try sink.open()
        defer { sink.close() }
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "open makes the FIFO")
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let tone = Self.tone(frames: 4_800)
        try Self.write(tone, to: sink)
        let got = Self.readAvailable(reader)
        #expect(got == tone.map(WAVFileSink.pcm16))
        #expect(sink.framesWritten == 4_800)
    }

    @Test func withoutAReaderWritesNeverWaitAndAFullPipeKeepsTheNewestAudio() throws {
        let sink = FifoSink(path: path, realtime: false)
        try sink.open()
        defer { sink.close() }
        // Five seconds: many times what a pipe holds (64 KiB, 16384 frames).
        let tone = Self.tone(frames: 240_000)
        try Self.write(tone, to: sink)
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let got = Self.readAvailable(reader)
        #expect(!got.isEmpty && got.count % 2 == 0)
        // What the pipe holds is the end of what was written, whole frames.
        let expected = tone.suffix(got.count).map(WAVFileSink.pcm16)
        #expect(got == Array(expected))
    }

    @Test func aReaderThatLeavesIsNoError() throws {
        let sink = FifoSink(path: path, realtime: false)
        try sink.open()
        defer { sink.close() }
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        try Self.write(Self.tone(frames: 4_800), to: sink)
        _ = Self.readAvailable(reader)
        close(reader)
        // No EPIPE, no SIGPIPE: the sink's own read end keeps the pipe open.
        try Self.write(Self.tone(frames: 96_000), to: sink)
        #expect(sink.framesWritten == 100_800)
    }

    @Test func aPathThatIsNotAFifoIsRefused() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        let sink = FifoSink(path: path, realtime: false)
        #expect(throws: PlaybackError.self) { try sink.open() }
        do throws(PlaybackError) {
            try sink.open()
        } catch {
            #expect(error.code == .audioOutputUnavailable)
        }
        #expect(FileManager.default.contents(atPath: path) == Data("x".utf8), "the file is left as it was")
    }

    @Test func closeRemovesTheFifoItMadeAndKeepsOneItFound() throws {
        let made = FifoSink(path: path, realtime: false)
        try made.open()
        made.close()
        #expect(!FileManager.default.fileExists(atPath: path))

        try #require(mkfifo(path, 0o600) == 0)
        let found = FifoSink(path: path, realtime: false)
        try found.open()
        found.close()
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
