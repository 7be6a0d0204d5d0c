import Media
import Synchronization

/// The loudness of what the render thread actually sent to the output (volume, fades and limiter
/// included), read from the player's `OutputTap`: a fact for a decision made elsewhere (is the
/// alarm heard?), never a decision itself.
///
/// Each `sample()` adds the frames recorded since the last one (at most the tap's capacity, so a
/// late look skips some audio rather than counting it twice) to an EBU R128 meter and returns the
/// momentary loudness. Looked at more often than the tap fills (every 40 ms or sooner), it sees
/// every frame. The tap records only while watched: the probe watches it from `init` until `stop`.
package final class OutputLoudnessProbe: Sendable {
    private let tap: OutputTap
    private let state: Mutex<State>

    /// `LoudnessMeter` is one thread's at a time; the mutex makes it so.
    private struct State: Sendable {
        var meter = LoudnessMeter(measure: .shortTermAndIntegrated)
        var seen: Int64
    }

    package init(tap: OutputTap) {
        self.tap = tap
        tap.isWatched = true
        state = Mutex(State(seen: tap.recorded))
    }

    /// Momentary loudness (LUFS, the last 400 ms) of what was sent so far; nil for digital
    /// silence or before any audio came.
    package func sample() -> Double? {
        let (samples, recorded) = tap.latest()
        return state.withLock { s in
            let fresh = Int(min(Int64(OutputTap.capacity), max(0, recorded - s.seen)))
            s.seen = recorded
            guard fresh > 0 else { return s.meter.frames > 0 ? s.meter.momentary : nil }
            let channels = AudioFormat.channelCount
            samples.withUnsafeBufferPointer { all in
                s.meter.add(all.baseAddress! + (OutputTap.capacity - fresh) * channels, frames: fresh)
            }
            return s.meter.momentary
        }
    }

    /// Stops watching the tap (a meter on screen may watch it again).
    package func stop() {
        tap.isWatched = false
    }
}
