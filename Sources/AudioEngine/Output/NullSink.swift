import Foundation
import Media
import PlayerCore
import Synchronization

/// A sink that discards audio and counts frames: real-time clocked (for playback without a sound
/// device, and for benchmarks of playback cost) or as fast as possible (for rendering).
///
/// In real-time mode `write` sleeps so the frames written never run ahead of the clock by more
/// than `lead` (150 ms), and sleeps once a `period` (100 ms) of audio rather than after every
/// write, like a device with a 150 ms buffer that wakes its writer once a period: a render thread
/// writing 43 ms blocks sleeps once in two or three. When the writer falls behind (a pause, a slow
/// decoder) the clock's origin moves forward, as a device underruns, so writing again does not
/// burst to catch up. `drain` sleeps until the last frame would have been heard.
///
/// Driven by one render thread; the counters are `Mutex` state so other threads may read
/// `framesWritten`.
package final class NullSink: AudioSink, Sendable {
    /// How far the frames written may run ahead of the clock in real-time mode.
    package static let lead = 0.15
    /// How much of the lead one sleep gives back: a write that runs past `lead` sleeps until the
    /// frames are `lead - period` ahead.
    package static let period = 0.1

    package let isRealtime: Bool
    package var kind: String { "null" }

    private let clock: any Clock<Duration>
    /// Seconds on `clock` since the sink was made.
    private let now: @Sendable () -> Double
    private struct Counters {
        var totalFrames: Int64 = 0
        /// Real-time pacing: the clock's origin and frames written since it (nil until the first write).
        var origin: Double?
        var pacedFrames: Int64 = 0
    }

    private let counters = Mutex(Counters())

    /// - Parameters:
    ///   - realtime: pace writes to the clock (true) or accept them as fast as they come.
    ///   - clock: the monotonic time writes are paced by; the render thread sleeps on it (tests
    ///     pass a clock whose sleeps return at once).
    package init(realtime: Bool, clock: any Clock<Duration> = SystemClock()) {
        self.isRealtime = realtime
        self.clock = clock
        self.now = PlayerClock(clock).now
    }

    /// Frames written since the sink was created (across `close`/`open`).
    package var framesWritten: Int64 { counters.withLock { $0.totalFrames } }

    /// Starts a new real-time clock; never fails.
    package func open() throws(PlaybackError) {
        counters.withLock {
            $0.origin = nil
            $0.pacedFrames = 0
        }
    }

    package func write(_ samples: UnsafePointer<Float>, frames: Int) throws(PlaybackError) {
        guard frames > 0 else { return }
        let pause: Double? = counters.withLock { c in
            c.totalFrames += Int64(frames)
            guard isRealtime else { return nil }
            let t = now()
            let start: Double
            if let origin = c.origin {
                // Behind the clock (the writer stalled): move the origin, as a device underruns.
                let due = origin + Double(c.pacedFrames) / Double(AudioFormat.sampleRate)
                start = t > due ? t - Double(c.pacedFrames) / Double(AudioFormat.sampleRate) : origin
            } else {
                start = t
            }
            c.origin = start
            c.pacedFrames += Int64(frames)
            let ahead = start + Double(c.pacedFrames) / Double(AudioFormat.sampleRate) - t
            return ahead > Self.lead ? ahead - (Self.lead - Self.period) : nil
        }
        if let pause { clock.sleepBlocking(for: .seconds(pause)) }
    }

    /// In real-time mode, sleeps until every frame written would have been heard.
    package func drain() throws(PlaybackError) {
        let pause: Double? = counters.withLock { c in
            guard isRealtime, let origin = c.origin else { return nil }
            let t = now()
            let end = origin + Double(c.pacedFrames) / Double(AudioFormat.sampleRate)
            return end > t ? end - t : nil
        }
        if let pause { clock.sleepBlocking(for: .seconds(pause)) }
    }

    package func close() {
        counters.withLock {
            $0.origin = nil
            $0.pacedFrames = 0
        }
    }

    /// A null sink has no device to lose.
    package func takeRouteChange() -> RouteChange? { nil }
}
