import Foundation
import Media
import TestProcesses
import Testing

@testable import AudioEngine

/// A clock that only moves when the sink sleeps on it (or the test advances it): each sleep
/// returns at once, its time passed, and is counted.
private final class FakeClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let lock = NSLock()
    private var time = Instant(offset: .seconds(100))
    private var slept: [Duration] = []

    var now: Instant { lock.withLock { time } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        lock.withLock {
            slept.append(time.duration(to: deadline))
            time = max(time, deadline)
        }
    }

    /// Seconds since the clock's zero.
    var seconds: Double { Self.seconds(now.offset) }
    var totalSleep: Double { lock.withLock { slept.map(Self.seconds).reduce(0, +) } }
    var sleepCount: Int { lock.withLock { slept.count } }

    func advance(_ seconds: Double) { lock.withLock { time = time.advanced(by: .seconds(seconds)) } }

    private static func seconds(_ duration: Duration) -> Double {
        duration.inSeconds
    }
}

private func makeSink(realtime: Bool, clock: FakeClock) -> NullSink {
    NullSink(realtime: realtime, clock: clock)
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

    @Test("real time: 1 s of frames never runs more than the lead ahead, sleeping once a period, and drains to 1 s")
    func realtimePacing() throws {
        let clock = FakeClock()
        let sink = makeSink(realtime: true, clock: clock)
        #expect(sink.isRealtime)
        try sink.open()
        let start = clock.seconds
        let buffer = [Float](repeating: 0, count: 480 * 2)
        try buffer.withUnsafeBufferPointer { samples in
            for _ in 0..<100 {
                try sink.write(samples.baseAddress!, frames: 480)
                let ahead = AudioFormat.seconds(forFrames: sink.framesWritten) - (clock.seconds - start)
                #expect(ahead <= NullSink.lead + 1e-9)
            }
        }
        // Ahead by at most the lead and at least the lead less a period once it has slept.
        let sleptWriting: Double = clock.totalSleep
        #expect(sleptWriting >= 1 - NullSink.lead - 1e-6)
        #expect(sleptWriting <= 1 - (NullSink.lead - NullSink.period) + 1e-6)
        // One sleep a period of audio, not one a write (100 writes of 10 ms).
        let sleeps: Int = clock.sleepCount
        let periods = Int((1 / NullSink.period).rounded())
        #expect(sleeps >= periods - 2 && sleeps <= periods)
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
        // 0.2 s more from a fresh origin: paced but for what the lead lets run ahead. Catching up
        // on the 5 s would not have slept at all.
        let sleptAfter: Double = clock.totalSleep - sleptBefore
        #expect(sleptAfter >= 0.2 - NullSink.lead - 1e-6)
        #expect(sleptAfter <= 0.2 - (NullSink.lead - NullSink.period) + 1e-6)
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
