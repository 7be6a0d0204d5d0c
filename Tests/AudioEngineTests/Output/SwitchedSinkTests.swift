import Foundation
import PlayerCore
import Testing

@testable import AudioEngine

/// An output turned off and on between writes: off it is closed and gets nothing, its stand-in
/// (if any) gets what it would have; on again it is opened and gets what follows; one that cannot
/// open turns its switch off again.
@Suite("Switched sink")
struct SwitchedSinkTests {
    let block = [Float](repeating: 0.25, count: 960)

    func write(_ sink: SwitchedSink, blocks: Int) throws {
        for _ in 0..<blocks { try block.withUnsafeBufferPointer { try sink.write($0.baseAddress!, frames: 480) } }
    }

    @Test func offClosesTheOutputAndTheStandInKeepsTheFrames() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-switch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("v.fifo").path
        let fifo = FifoSink(path: path, realtime: false)
        let standIn = NullSink(realtime: false)
        let toggle = OutputSwitch(name: "fifo")
        let sink = SwitchedSink(fifo, switch: toggle, standIn: standIn)
        try sink.open()
        defer { sink.close() }
        try write(sink, blocks: 4)
        #expect(fifo.framesWritten == 1_920 && standIn.framesWritten == 0)

        #expect(toggle.set(false))
        #expect(!toggle.set(false), "turning off what is off changes nothing")
        try write(sink, blocks: 2)
        #expect(fifo.framesWritten == 1_920, "nothing reaches an output that is off")
        #expect(standIn.framesWritten == 960)
        #expect(!FileManager.default.fileExists(atPath: path), "closed: the FIFO it made is gone")

        #expect(toggle.set(true))
        try write(sink, blocks: 3)
        #expect(FileManager.default.fileExists(atPath: path), "opened again")
        #expect(fifo.framesWritten == 3_360 && standIn.framesWritten == 960)
        #expect(toggle.isOn)
    }

    @Test func anOutputThatCannotComeBackTurnsItsSwitchOffAgain() throws {
        let unreachable = FifoSink(path: "/nonexistent-\(UUID().uuidString)/v.fifo", realtime: false)
        let standIn = NullSink(realtime: false)
        let toggle = OutputSwitch(name: "fifo", on: false)
        let sink = SwitchedSink(unreachable, switch: toggle, standIn: standIn)
        try sink.open()
        defer { sink.close() }
        try write(sink, blocks: 1)
        toggle.set(true)
        try write(sink, blocks: 1)
        #expect(!toggle.isOn, "what a client reads is what plays")
        #expect(standIn.framesWritten == 960, "playback went on through the stand-in")
    }

    @Test func besideTheMainOutputOffDropsItsWrites() throws {
        let beside = NullSink(realtime: false)
        let toggle = OutputSwitch(name: "beside")
        let sink = SwitchedSink(beside, switch: toggle, standIn: nil)
        try sink.open()
        defer { sink.close() }
        toggle.set(false)
        try write(sink, blocks: 2)
        #expect(beside.framesWritten == 0)
        toggle.set(true)
        try write(sink, blocks: 2)
        #expect(beside.framesWritten == 960)
    }
}
