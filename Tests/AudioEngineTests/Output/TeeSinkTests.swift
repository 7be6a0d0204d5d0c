import Foundation
import PlayerCore
import Testing

@testable import AudioEngine

/// The main output with a second one beside it: the main one is the output, the second one can
/// fail without playback noticing.
@Suite("Tee sink")
struct TeeSinkTests {
    @Test func bothOutputsGetEveryBlock() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-tee-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let main = NullSink(realtime: false)
        let fifo = FifoSink(path: directory.appendingPathComponent("v.fifo").path, realtime: false)
        let tee = TeeSink(main: main, beside: fifo)
        try tee.open()
        defer { tee.close() }
        let block = [Float](repeating: 0.25, count: 960)
        for _ in 0..<10 { try block.withUnsafeBufferPointer { try tee.write($0.baseAddress!, frames: 480) } }
        #expect(main.framesWritten == 4_800)
        #expect(fifo.framesWritten == 4_800)
        #expect(tee.kind == "null" && !tee.isRealtime)
    }

    @Test func aSecondOutputThatCannotOpenNeverStopsTheMainOne() throws {
        let main = NullSink(realtime: false)
        let fifo = FifoSink(path: "/nonexistent-\(UUID().uuidString)/v.fifo", realtime: false)
        let tee = TeeSink(main: main, beside: fifo)
        try tee.open()
        defer { tee.close() }
        let block = [Float](repeating: 0.25, count: 960)
        for _ in 0..<10 { try block.withUnsafeBufferPointer { try tee.write($0.baseAddress!, frames: 480) } }
        #expect(main.framesWritten == 4_800)
        #expect(fifo.framesWritten == 0)
    }
}
