import Foundation
import Media
import PlayerCore

/// The device half of the Snapcast sink: a small buffer of 16-bit frames that the render thread
/// fills (`push`, blocking while it is full) and a thread of its own that sends it to the server
/// at real-time pace, in `chunkFrames` slices, a slice of silence whenever the buffer is empty.
/// A Snapcast source must never starve: its clients would lose their sync (and the server would
/// mark the stream idle), so pauses, buffering and reconnects upstream are silence here.
///
/// Pacing: slice `n` is sent once the clock reaches `origin + n × slice - lead`. A sender that
/// fell more than `maxLateness` behind (the machine stalled) moves its origin, as a device
/// underruns, instead of bursting to catch up.
///
/// A failed write ends the thread and is kept as `failure` (`audioOutputLost`); `push` and
/// `waitUntilEmpty` throw it.
///
/// `@unchecked Sendable`: its fields are guarded by `condition`, an `NSCondition` (`push` and
/// `waitUntilEmpty` wait on it), whose waits `Mutex` does not offer.
final class SnapcastFeeder: @unchecked Sendable {
    static let chunkFrames = 480
    /// How far ahead of the clock slices are sent.
    static let lead = 0.02
    static let maxLateness = 0.2
    static let stallTimeout = 5.0

    private let connection: SnapcastConnection
    private let capacityFrames: Int
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Double

    private let condition = NSCondition()
    /// Interleaved little-endian 16-bit samples, a ring of `capacityFrames` frames.
    private var ring: [Int16]
    private var readFrame = 0
    private var bufferedFrames = 0
    private var failure: PlaybackError?
    private var stopping = false
    private let ended = DispatchSemaphore(value: 0)

    init(connection: SnapcastConnection, capacityFrames: Int, clock: any Clock<Duration>) {
        self.connection = connection
        self.capacityFrames = capacityFrames
        self.clock = clock
        self.now = PlayerClock(clock).now
        ring = [Int16](repeating: 0, count: capacityFrames * AudioFormat.channelCount)
    }

    /// Starts the sending thread.
    func start() {
        let thread = Thread { [self] in
            SnapcastConnection.blockBrokenPipeSignal()
            run()
            ended.signal()
        }
        thread.name = "tonearm.snapcast"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Stops the sending thread and waits for it to end. Call once.
    func stop() {
        condition.withLock {
            stopping = true
            condition.broadcast()
        }
        ended.wait()
    }

    /// False once a write failed.
    var isHealthy: Bool { condition.withLock { failure == nil } }

    /// Converts and buffers `frames` Float32 stereo frames (clipped to [-1, 1], rounded to nearest,
    /// NaN as 0), waiting for room like a device. The server went away -> `audioOutputLost`.
    func push(_ samples: UnsafePointer<Float>, frames: Int) throws(PlaybackError) {
        let channels = AudioFormat.channelCount
        var done = 0
        condition.lock()
        defer { condition.unlock() }
        while done < frames {
            if let failure { throw failure }
            if stopping { throw closed }
            let room = capacityFrames - bufferedFrames
            if room == 0 {
                condition.wait()
                continue
            }
            let count = min(room, frames - done)
            var writeFrame = (readFrame + bufferedFrames) % capacityFrames
            for frame in done..<(done + count) {
                for channel in 0..<channels {
                    let value = samples[frame * channels + channel]
                    let clipped = value.isNaN ? 0 : min(max(value, -1), 1)
                    ring[writeFrame * channels + channel] = Int16((clipped * 32_767).rounded()).littleEndian
                }
                writeFrame = (writeFrame + 1) % capacityFrames
            }
            bufferedFrames += count
            done += count
        }
    }

    /// What waiting for a stopped sender ends with.
    private var closed: PlaybackError {
        PlaybackError(.audioOutputLost, underlying: "Snapcast source \(connection.endpoint): closed")
    }

    /// Waits until every buffered frame was sent. The server went away -> `audioOutputLost`.
    func waitUntilEmpty() throws(PlaybackError) {
        condition.lock()
        defer { condition.unlock() }
        while bufferedFrames > 0 {
            if let failure { throw failure }
            if stopping { throw closed }
            condition.wait()
        }
        if let failure { throw failure }
    }

    // MARK: The sending thread

    private func run() {
        let channels = AudioFormat.channelCount
        var slice = [Int16](repeating: 0, count: Self.chunkFrames * channels)
        let rate = Double(AudioFormat.sampleRate)
        var origin = now()
        var sent: Int64 = 0
        while true {
            let due = origin + Double(sent) / rate - Self.lead
            let t = now()
            if t < due {
                if condition.withLock({ stopping }) { return }
                clock.sleepBlocking(for: .seconds(min(due - t, Double(SnapcastConnection.pollSlice) / 1000)))
                continue
            }
            if t - due > Self.maxLateness {
                origin = t - Double(sent) / rate
            }
            let stop = condition.withLock { () -> Bool in
                if stopping { return true }
                let count = min(bufferedFrames, Self.chunkFrames)
                for index in 0..<(Self.chunkFrames * channels) {
                    let frame = index / channels
                    slice[index] = frame < count ? ring[((readFrame + frame) % capacityFrames) * channels + index % channels] : 0
                }
                readFrame = (readFrame + count) % capacityFrames
                bufferedFrames -= count
                condition.broadcast()
                return false
            }
            if stop { return }
            let reason = slice.withUnsafeBytes { bytes in
                connection.write(bytes, stallTimeout: Self.stallTimeout) { condition.withLock { stopping } }
            }
            if let reason {
                condition.withLock {
                    failure = PlaybackError(.audioOutputLost, underlying: "Snapcast source \(connection.endpoint): \(reason)")
                    condition.broadcast()
                }
                return
            }
            sent += Int64(Self.chunkFrames)
        }
    }
}
