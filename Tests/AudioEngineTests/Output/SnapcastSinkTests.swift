import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

#if canImport(Glibc)
    import Glibc
#endif

/// The Snapcast sink against what it writes to: a FIFO this test reads (as snapserver's `pipe://`
/// source does), and addresses where nothing listens.
@Suite("Snapcast sink", .blocking)
struct SnapcastSinkTests {
    @Test func endpointsParseAsTheListenerWritesThem() {
        #expect(SnapcastEndpoint(address: "tcp://127.0.0.1:4953") == .tcp(host: "127.0.0.1", port: 4953))
        #expect(SnapcastEndpoint(address: "tcp://[::1]:4953") == .tcp(host: "::1", port: 4953))
        #expect(SnapcastEndpoint(address: "tcp://kitchen.local:4953")?.description == "tcp://kitchen.local:4953")
        #expect(SnapcastEndpoint(address: "pipe:/tmp/snapfifo") == .pipe(path: "/tmp/snapfifo"))
        for wrong in ["tcp://host", "tcp://:4953", "tcp://host:0", "tcp://host:99999", "pipe:", "udp://host:1", "host:4953"] {
            #expect(SnapcastEndpoint(address: wrong) == nil, "\(wrong)")
        }
    }

    @Test func openWithNothingThereIsUnavailableAndNamesTheAddress() throws {
        let refused = try PortReservation()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = "\(directory)/nobody-reads"
        #expect(mkfifo(fifo, 0o600) == 0)
        for endpoint in [SnapcastEndpoint.tcp(host: "127.0.0.1", port: refused.port), .pipe(path: fifo), .pipe(path: "\(directory)/missing")] {
            let sink = SnapcastSink(endpoint: endpoint)
            do {
                try sink.open()
                Issue.record("\(endpoint) opened")
            } catch {
                #expect(error.code == .audioOutputUnavailable)
                #expect(error.underlying?.contains(endpoint.description) == true, "\(error.underlying ?? "")")
            }
        }
    }

    @Test func feedsSilenceWhileIdleThenTheSoundAsSixteenBitLittleEndian() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = "\(directory)/snapfifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Glibc.open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(reader >= 0)
        defer { Glibc.close(reader) }
        let sink = SnapcastSink(endpoint: .pipe(path: fifo))
        try sink.open()
        defer { sink.close() }

        // Nothing written yet: the source is fed silence, at real-time pace.
        let silence = read(reader, atLeast: 4 * 4_800)
        #expect(silence.count >= 4 * 4_800)
        #expect(silence.allSatisfy { $0 == 0 })

        // A constant block of (0.5, -0.25): 16384 and -8192 (rounded), little-endian.
        let frames = 4_800
        let block = [Float](repeating: 0, count: frames * 2).enumerated().map { $0.offset % 2 == 0 ? Float(0.5) : Float(-0.25) }
        try block.withUnsafeBufferPointer { try sink.write($0.baseAddress!, frames: frames) }
        var heard: [UInt8] = []
        let found = eventuallyBlocking(timeout: 10, every: .milliseconds(5)) {
            heard += read(reader, atLeast: 0)
            return heard.count >= 4 && samples(heard).contains(16_384)
        }
        #expect(found, "the written block never reached the FIFO")
        let values = samples(heard)
        guard let first = values.firstIndex(of: 16_384) else { return }
        // Frames are whole: the left sample comes first.
        #expect(first % 2 == 0)
        #expect(values[first + 1] == -8_192)
    }

    @Test func aReaderThatGoesAwayIsOutputLostNotADeadProcess() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = "\(directory)/snapfifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Glibc.open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        let sink = SnapcastSink(endpoint: .pipe(path: fifo))
        try sink.open()
        defer { sink.close() }
        _ = read(reader, atLeast: 1_000)
        Glibc.close(reader)

        // The render thread keeps writing as it would; the loss surfaces as a typed error (the
        // process would have died of SIGPIPE otherwise), and `write` does not block for good.
        let block = [Float](repeating: 0.1, count: 2_048 * 2)
        var lost: PlaybackError?
        let deadline = Date().addingTimeInterval(30)
        while lost == nil, Date() < deadline {
            do {
                try block.withUnsafeBufferPointer { try sink.write($0.baseAddress!, frames: 2_048) }
            } catch let error as PlaybackError {
                lost = error
            } catch {
                Issue.record("\(error)")
                break
            }
        }
        #expect(lost?.code == .audioOutputLost)
        #expect(lost?.underlying?.contains(fifo) == true)
        #expect(throws: PlaybackError.self) { try sink.drain() }

        // A reader again: opening again works.
        let again = Glibc.open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        defer { Glibc.close(again) }
        sink.close()
        try sink.open()
        try block.withUnsafeBufferPointer { try sink.write($0.baseAddress!, frames: 2_048) }
    }

    // MARK: Helpers

    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapsink-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Reads what the FIFO holds, waiting (up to 10 s) until at least `count` bytes came.
    private func read(_ fd: Int32, atLeast count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        _ = eventuallyBlocking(timeout: 10, every: .milliseconds(5)) {
            while true {
                let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if got <= 0 { break }
                bytes += chunk[..<got]
            }
            return bytes.count >= count
        }
        return bytes
    }

    private func samples(_ bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }
}
