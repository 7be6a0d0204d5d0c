import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// An output paced like a device (the real-time null sink) that keeps what it is given.
final class PacedCapture: AudioSink, @unchecked Sendable {
    private let pace = NullSink(realtime: true)
    let capture = CapturingSink()
    var kind: String { "paced capture" }
    var isRealtime: Bool { true }
    func open() throws(PlaybackError) { try pace.open() }
    func write(_ buffer: UnsafePointer<Float>, frames: Int) throws(PlaybackError) {
        try capture.write(buffer, frames: frames)
        try pace.write(buffer, frames: frames)
    }
    func drain() throws(PlaybackError) { try pace.drain() }
    func close() { pace.close() }
    func takeRouteChange() -> RouteChange? { nil }
}

/// The sleep timer in real time, measured in what was played: a minute of listening, then the
/// fade, then silence.
@Suite("Sleep timer in real time", .blocking)
struct SleepTimerRenderTests {
    @Test func aOneMinuteTimerOnAThreeMinuteFileEndsAfterTheMinuteAndTheFade() async throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.flac, sampleRate: 48_000, seconds: 180, frequency: 440, name: "long.flac")
        let sink = PacedCapture()
        let configuration = PlayerStateMachine.Configuration(sleep: .after(60), sleepFadeDuration: 10)
        let player = AudioPlayer(output: sink, options: .init(configuration: configuration, mode: .realtime))
        let log = UpdateLog()
        player.record(into: log)
        try await player.start()
        try await player.play(PlayRequest(track: track(file)))
        #expect(await log.wait(timeout: 120, reached(.finished)), "the sleep timer never ended playback")
        await player.shutdown()

        #expect(await log.stateNames.suffix(3) == [.playing, .fadingOut, .finished])
        let left = sink.capture.left
        guard let first = left.firstIndex(where: { abs($0) > 1e-4 }), let last = left.lastIndex(where: { abs($0) > 1e-4 }) else {
            Issue.record("nothing was played")
            return
        }
        // What sounded, less any gap a loaded machine left (the countdown stops with the sound).
        let audible = Double(last - first + 1 - Self.gapFrames(in: left[first...last])) / 48_000
        #expect(abs(audible - 70) <= 0.5, "sounded for \(audible) s (a minute, then a 10 s fade)")
        // The fade only ever goes down: each 100 ms window is no louder than the one before.
        let fadeStart = last - 10 * 48_000
        let windows = stride(from: fadeStart, to: last - 4_800, by: 4_800).map { SignalMetrics.rms(left[$0..<($0 + 4_800)]) }
        let rises = zip(windows, windows.dropFirst()).filter { $1 > $0 * 1.001 + 1e-6 }
        #expect(rises.isEmpty, "the fade rises: \(rises.prefix(3))")
        let before = SignalMetrics.rms(left[(fadeStart - 48_000)..<fadeStart])
        #expect(windows.first.map { $0 > before * 0.9 } == true, "the fade starts at full level")
        #expect(windows.last.map { $0 < before * 0.05 } == true, "and ends near silence")
    }

    /// Frames in runs of silence of 1 ms or more (an underrun's), which are not part of the sound.
    static func gapFrames(in samples: ArraySlice<Float>) -> Int {
        var total = 0
        var run = 0
        for sample in samples {
            if abs(sample) > 1e-4 {
                if run >= 48 { total += run }
                run = 0
            } else {
                run += 1
            }
        }
        return total
    }
}
