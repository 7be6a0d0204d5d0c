import Foundation
import Media
import TestProcesses
import Testing

@testable import AudioEngine

/// A clock that only moves when the sink sleeps (or the test advances it).
private final class FakeClock: @unchecked Sendable {
    private let lock = NSLock()
    private var time = 100.0
    private var slept: [Double] = []

    var now: Double { lock.withLock { time } }
    var totalSleep: Double { lock.withLock { slept.reduce(0, +) } }
    var sleepCount: Int { lock.withLock { slept.count } }

    func sleep(_ seconds: Double) { lock.withLock { slept.append(seconds); time += seconds } }
    func advance(_ seconds: Double) { lock.withLock { time += seconds } }
}

private func makeSink(realtime: Bool, clock: FakeClock) -> NullSink {
    NullSink(realtime: realtime, sleep: { clock.sleep($0) }, now: { clock.now })
}

/// Writes `seconds` of silence in `chunk`-frame buffers.
private func writeSilence(_ sink: NullSink, seconds: Double, chunk: Int = 480) throws {
    let buffer = [Float](repeating: 0, count: chunk * 2)
    var left = Int(AudioFormat.frames(forSeconds: seconds))
    try buffer.withUnsafeBufferPointer { samples in
        while left > 0 {
            let n = min(chunk, left)
            try sink.write(samples.baseAddress!, frames: n)
            left -= n
        }
    }
}

@Suite("NullSink", .blocking)
struct NullSinkTests {
    @Test("counts every frame written, across close and open")
    func countsFrames() throws {
        let clock = FakeClock()
        let sink = makeSink(realtime: false, clock: clock)
        try sink.open()
        try writeSilence(sink, seconds: 0.5, chunk: 1000)
        #expect(sink.framesWritten == 24_000)
        sink.close()
        try sink.open()
        try writeSilence(sink, seconds: 0.01, chunk: 7)
        #expect(sink.framesWritten == 24_480)
        #expect(sink.kind == "null")
        #expect(sink.takeRouteChange() == nil)
    }

    @Test("real time: 1 s of frames sleeps about 0.95 s, never running more than 50 ms ahead")
    func realtimePacing() throws {
        let clock = FakeClock()
        let sink = makeSink(realtime: true, clock: clock)
        #expect(sink.isRealtime)
        try sink.open()
        let start = clock.now
        let buffer = [Float](repeating: 0, count: 480 * 2)
        try buffer.withUnsafeBufferPointer { samples in
            for _ in 0..<100 {
                try sink.write(samples.baseAddress!, frames: 480)
                let ahead = AudioFormat.seconds(forFrames: sink.framesWritten) - (clock.now - start)
                #expect(ahead <= NullSink.lead + 1e-9)
            }
        }
        #expect(abs(clock.totalSleep - 0.95) < 1e-6)
        try sink.drain()
        #expect(abs(clock.totalSleep - 1.0) < 1e-6)
    }

    @Test("real time: after a stall the clock restarts instead of bursting to catch up")
    func realtimeAfterStall() throws {
        let clock = FakeClock()
        let sink = makeSink(realtime: true, clock: clock)
        try sink.open()
        try writeSilence(sink, seconds: 0.2)
        let sleptBefore = clock.totalSleep
        clock.advance(5)  // the render loop paused for 5 s
        try writeSilence(sink, seconds: 0.2)
        // 0.2 s more from a fresh origin: the first 50 ms may run ahead, the rest is paced.
        #expect(abs(clock.totalSleep - sleptBefore - 0.15) < 0.011)
    }

    @Test("as fast as possible: never sleeps")
    func asFastAsPossible() throws {
        let clock = FakeClock()
        let sink = makeSink(realtime: false, clock: clock)
        #expect(!sink.isRealtime)
        try sink.open()
        try writeSilence(sink, seconds: 3)
        try sink.drain()
        sink.close()
        #expect(clock.sleepCount == 0)
        #expect(sink.framesWritten == 144_000)
    }
}
