import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// Interleaved stereo sine, `seconds` long, at `amplitude`.
private func sine(seconds: Double, frequency: Double = 440, amplitude: Float = 0.5) -> [Float] {
    let frames = Int(AudioFormat.frames(forSeconds: seconds))
    var samples = [Float](repeating: 0, count: frames * 2)
    for i in 0..<frames {
        let value = amplitude * Float(sin(2 * Double.pi * frequency * Double(i) / 48_000))
        samples[2 * i] = value
        samples[2 * i + 1] = value
    }
    return samples
}

/// Writes `samples` in render-loop-sized buffers (1024 frames).
private func play(_ samples: [Float], on sink: any AudioSink, chunk: Int = 1024) throws(PlaybackError) {
    let frames = samples.count / 2
    var offset = 0
    while offset < frames {
        let n = min(chunk, frames - offset)
        let start = offset
        let result: Result<Void, PlaybackError> = samples.withUnsafeBufferPointer { buffer in
            Result { () throws(PlaybackError) in try sink.write(buffer.baseAddress! + 2 * start, frames: n) }
        }
        try result.get()
        offset += n
    }
}

/// Monotonic seconds, for how long a call took.
private func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

private func elapsed(since start: Double) -> Double { monotonicSeconds() - start }

/// End to end through a real, private PulseAudio daemon per test (see `PulseAudioDaemon`).
@Suite("PulseAudioSink", .blocking)
struct PulseAudioSinkTests {
    @Test("plays 2 s of a sine that the null sink's monitor records: non-silent, 2 s of sound")
    func playsAndRecords() throws {
        let daemon = try PulseAudioDaemon()
        let dir = try SinkTestDirectory()
        let recording = dir.file("monitor.wav")
        // startRecording returns once parecord's stream exists, so the recorder's start-up
        // latency cannot cut the beginning; the audible span is measured, not the file length
        // (which also holds the silence before and after).
        try daemon.startRecording(to: recording)

        let sink = PulseAudioSink(server: daemon.serverAddress)
        #expect(sink.kind == "PulseAudio")
        #expect(sink.isRealtime)
        try sink.open()
        try play(sine(seconds: 2), on: sink)
        try sink.drain()
        sink.close()
        try daemon.waitForRecording(seconds: 0.3)
        daemon.stopRecording()

        // Writing blocks like a device: 2 s of audio takes about 2 s (less the buffer) to write.
        let wav = try WAVReader.read(path: recording)
        #expect(wav.sampleRate == 48_000)
        #expect(wav.channels == 2)
        #expect(wav.duration >= 2.0, "recording is \(wav.duration) s")
        let left = wav.channel(0)
        guard let first = left.firstIndex(where: { abs($0) > 0.05 }),
            let last = left.lastIndex(where: { abs($0) > 0.05 })
        else {
            Issue.record("the recording is silent (\(wav.duration) s)")
            return
        }
        // The sound's own length: the span less any gap (a run of 1 ms or more below the
        // threshold; a 440 Hz sine's zero crossings are a few samples). A loaded machine can
        // make the server insert such gaps, which do not change what was played.
        let audible = left[first...last]
        let played = Double(audible.count - Self.gapSamples(in: audible, atLeast: 48)) / 48_000
        #expect(abs(played - 2.0) <= 0.05, "audible \(played) s in a span of \(Double(audible.count) / 48_000) s")
        let rms = (audible.reduce(0) { $0 + Double($1) * Double($1) } / Double(audible.count)).squareRoot()
        #expect(rms > 0.1, "RMS \(rms)")
        #expect(abs(rms - 0.5 / 2.0.squareRoot()) < 0.05, "RMS \(rms)")
    }

    /// The samples in runs of at least `minimum` samples below the audible threshold.
    static func gapSamples(in samples: ArraySlice<Float>, atLeast minimum: Int) -> Int {
        var total = 0
        var run = 0
        for sample in samples {
            if abs(sample) > 0.05 {
                if run >= minimum { total += run }
                run = 0
            } else {
                run += 1
            }
        }
        return total
    }

    @Test("no server: open fails quickly with audioOutputUnavailable")
    func noServer() throws {
        let sink = PulseAudioSink(server: "unix:/nonexistent")
        let error = #expect(throws: PlaybackError.self) { try sink.open() }
        #expect(error?.code == .audioOutputUnavailable)
        #expect(error?.underlying?.isEmpty == false)
        #expect(throws: PlaybackError(.audioOutputUnavailable)) { try sink.write([0, 0], frames: 1) }
        sink.close()
    }

    @Test("a missing device: open fails with audioOutputUnavailable")
    func missingDevice() throws {
        let daemon = try PulseAudioDaemon()
        let sink = PulseAudioSink(server: daemon.serverAddress, device: "no-such-sink")
        #expect(throws: PlaybackError(.audioOutputUnavailable)) { try sink.open() }
    }

    @Test("serverAnswers: true for a running daemon, false for none or a stopped one")
    func serverAnswers() throws {
        let daemon = try PulseAudioDaemon()
        #expect(PulseAudioSink.serverAnswers(server: daemon.serverAddress, timeout: 3))
        #expect(!PulseAudioSink.serverAnswers(server: "unix:/nonexistent", timeout: 1))
        daemon.stop()
        #expect(!PulseAudioSink.serverAnswers(server: daemon.serverAddress, timeout: 1))
    }

    @Test("killing the daemon mid-write throws audioOutputLost; after a restart open works again")
    func serverLostAndBack() throws {
        let daemon = try PulseAudioDaemon()
        let sink = PulseAudioSink(server: daemon.serverAddress)
        try sink.open()
        try play(sine(seconds: 0.3), on: sink)

        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { daemon.kill() }
        let error = #expect(throws: PlaybackError.self) { try play(sine(seconds: 10), on: sink) }
        #expect(error?.code == .audioOutputLost)
        #expect(throws: PlaybackError(.audioOutputLost)) { try sink.drain() }
        sink.close()
        #expect(throws: PlaybackError(.audioOutputUnavailable)) { try sink.open() }

        try daemon.restart()
        try sink.open()
        let dir = try SinkTestDirectory()
        try daemon.startRecording(to: dir.file("after.wav"))
        try play(sine(seconds: 0.5), on: sink)
        try sink.drain()
        sink.close()
        try daemon.waitForRecording(seconds: 0.2)
        daemon.stopRecording()
        let wav = try WAVReader.read(path: dir.file("after.wav"))
        #expect(wav.samples.contains { abs($0) > 0.4 }, "nothing audible after the restart")
    }

    @Test("the device playing is removed while the server stays: route change deviceRemoved")
    func deviceRemoved() throws {
        let daemon = try PulseAudioDaemon()
        let module = try daemon.loadNullSink(name: "headphones")
        let sink = PulseAudioSink(server: daemon.serverAddress, device: "headphones")
        try sink.open()
        try play(sine(seconds: 0.3), on: sink)
        #expect(sink.takeRouteChange() == nil)

        try daemon.unloadModule(module)
        var change: RouteChange?
        let start = monotonicSeconds()
        // Keep playing like the render loop does, checking for a route change after each buffer.
        while change == nil, elapsed(since: start) < 3 {
            try play(sine(seconds: 0.02), on: sink)
            change = sink.takeRouteChange()
        }
        #expect(change == .deviceRemoved(name: "headphones"))
        #expect(sink.takeRouteChange() == nil)
        // Another sink exists, so PulseAudio moved the stream there rather than killing it.
        #expect(try daemon.sinkInputs().count == 1)
        // The stream was moved (to `test`) or killed; either way writing does not throw.
        try play(sine(seconds: 0.1), on: sink)
        sink.close()
    }

    @Test("moving the stream to a sink that still exists is not a route change")
    func movedByUser() throws {
        let daemon = try PulseAudioDaemon()
        _ = try daemon.loadNullSink(name: "speakers")
        let sink = PulseAudioSink(server: daemon.serverAddress)
        try sink.open()
        try play(sine(seconds: 0.2), on: sink)
        let inputs = try daemon.sinkInputs()
        try #require(inputs.count == 1)
        let moved = try daemon.pactl(["move-sink-input", String(inputs[0]), "speakers"])
        #expect(moved.status == 0, "\(moved.error)")
        try play(sine(seconds: 0.5), on: sink)
        #expect(sink.takeRouteChange() == nil)
        sink.close()
    }

    @Test("the only sink is removed (the stream is killed, the server stays): route change, write keeps time, open recovers")
    func streamKilled() throws {
        let daemon = try PulseAudioDaemon()
        let module = try daemon.nullSinkModule(name: "test")
        let sink = PulseAudioSink(server: daemon.serverAddress)
        try sink.open()
        try play(sine(seconds: 0.2), on: sink)
        // With no other sink to move the stream to, PulseAudio kills it; the context stays.
        try daemon.unloadModule(module)

        var change: RouteChange?
        let start = monotonicSeconds()
        while change == nil, elapsed(since: start) < 3 {
            try play(sine(seconds: 0.02), on: sink)
            change = sink.takeRouteChange()
        }
        #expect(change == .deviceRemoved(name: "test"))
        #expect(try daemon.sinkInputs().isEmpty)
        // Writes after the device went away are discarded without an error; drain returns.
        try play(sine(seconds: 0.3), on: sink)
        try sink.drain()
        // No sink at all: open cannot make a stream.
        #expect(throws: PlaybackError(.audioOutputUnavailable)) { try sink.open() }
        // A device comes back: open() makes a new stream on it, which plays.
        _ = try daemon.loadNullSink(name: "usb")
        try sink.open()
        #expect(try daemon.sinkInputs().count == 1)
        try play(sine(seconds: 0.3), on: sink)
        try sink.drain()
        sink.close()
        #expect(try daemon.sinkInputs().isEmpty)
    }
}
