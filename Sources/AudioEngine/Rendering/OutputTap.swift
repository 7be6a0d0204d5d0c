import Media
import Synchronization

/// The last samples the render thread wrote to the output, for a level meter.
///
/// The render thread records each block after the sink took it (so what shows is what was sent,
/// volume, fades and limiter included); a screen takes a copy when it redraws. While nothing
/// watches, recording is one atomic load: the copy is made only while `isWatched` is true.
package final class OutputTap: Sendable {
    /// Frames kept: the newest ~43 ms, enough for a meter's peak and RMS at 20 redraws a second.
    package static let capacity = 2_048

    private let watched = Atomic<Bool>(false)
    private let store = Mutex(Store())

    private struct Store {
        /// Interleaved stereo, a ring of `capacity` frames.
        var ring = [Float](repeating: 0, count: OutputTap.capacity * AudioFormat.channelCount)
        /// Next frame to write in the ring.
        var head = 0
        /// Frames recorded since the tap was made.
        var recorded: Int64 = 0
    }

    package init() {}

    /// Turns copying on (a meter is shown) or off.
    package var isWatched: Bool {
        get { watched.load(ordering: .relaxed) }
        set { watched.store(newValue, ordering: .relaxed) }
    }

    /// The render thread: the block just written.
    package func record(_ samples: UnsafePointer<Float>, frames: Int) {
        guard frames > 0, watched.load(ordering: .relaxed) else { return }
        let channels = AudioFormat.channelCount
        // Only the newest `capacity` frames of a long block matter.
        let skipped = max(0, frames - Self.capacity)
        store.withLock { s in
            s.ring.withUnsafeMutableBufferPointer { ring in
                var frame = skipped
                while frame < frames {
                    let run = min(frames - frame, Self.capacity - s.head)
                    (ring.baseAddress! + s.head * channels).update(from: samples + frame * channels, count: run * channels)
                    s.head = (s.head + run) % Self.capacity
                    frame += run
                }
            }
            s.recorded += Int64(frames)
        }
    }

    /// Frames recorded since the tap was made: a reader that sees it unchanged has nothing new.
    package var recorded: Int64 { store.withLock { $0.recorded } }

    /// The newest `capacity` frames in order (interleaved stereo), and how many frames were ever
    /// recorded, so a reader sees whether anything new came since its last look.
    package func latest() -> (samples: [Float], recorded: Int64) {
        store.withLock { s in
            let channels = AudioFormat.channelCount
            let split = s.head * channels
            return (Array(s.ring[split...] + s.ring[..<split]), s.recorded)
        }
    }
}
