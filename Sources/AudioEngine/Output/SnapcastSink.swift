import Foundation
import Media
import PlayerCore
import Synchronization

/// Feeds a Snapcast server's stream source: 16-bit little-endian 48 kHz stereo (the source's
/// `sampleformat=48000:16:2`) over TCP to a `tcp://` source in `mode=server`, or into the FIFO of
/// a `pipe://` source.
///
/// It behaves as a device with a `bufferSeconds` buffer: `write` fills the buffer and blocks
/// while it is full; the sink's own thread (`SnapcastFeeder`) drains it at real-time pace and
/// sends silence whenever it is empty, so the server's clients keep their sync through pauses,
/// buffering and reconnects.
///
/// Failures:
/// - `open`: nothing listens, the host is unknown, the FIFO has no reader -> `audioOutputUnavailable`
///   naming the address.
/// - `write`/`drain`: the server closed the connection or the FIFO, a write failed, or nothing
///   was taken for 5 s -> `audioOutputLost`, never a SIGPIPE or a render thread blocked for good.
///   `open` after `close` connects again.
///
/// Driven by one render thread; the open connection is `Mutex` state.
package final class SnapcastSink: AudioSink, Sendable {
    /// How long `open` waits for a TCP connection.
    package static let connectTimeout = 3.0

    package let endpoint: SnapcastEndpoint
    package let bufferSeconds: Double
    package var kind: String { "Snapcast" }
    package var isRealtime: Bool { true }

    private let clock: any Clock<Duration>
    private let feeder = Mutex<SnapcastFeeder?>(nil)

    /// - Parameters:
    ///   - endpoint: the server's stream source.
    ///   - bufferSeconds: what `write` may run ahead of the sound sent (at least a render block).
    ///   - clock: what the sending thread paces itself by.
    package init(endpoint: SnapcastEndpoint, bufferSeconds: Double = 0.1, clock: any Clock<Duration> = SystemClock()) {
        self.endpoint = endpoint
        self.bufferSeconds = bufferSeconds
        self.clock = clock
    }

    deinit { close() }

    /// Connects and starts sending silence (or does nothing while a healthy connection is open).
    package func open() throws(PlaybackError) {
        if let existing = feeder.withLock({ $0 }) {
            if existing.isHealthy { return }
            close()
        }
        let connection = try SnapcastConnection.open(endpoint, timeout: Self.connectTimeout)
        let fresh = SnapcastFeeder(
            connection: connection, capacityFrames: max(2_048, Int(bufferSeconds * Double(AudioFormat.sampleRate))), clock: clock)
        fresh.start()
        feeder.withLock { $0 = fresh }
    }

    package func write(_ samples: UnsafePointer<Float>, frames: Int) throws(PlaybackError) {
        guard frames > 0 else { return }
        guard let current = feeder.withLock({ $0 }) else {
            throw PlaybackError(.audioOutputUnavailable, underlying: "Snapcast sink is not open")
        }
        try current.push(samples, frames: frames)
    }

    package func drain() throws(PlaybackError) {
        try feeder.withLock({ $0 })?.waitUntilEmpty()
    }

    package func close() {
        let old = feeder.withLock { feeder -> SnapcastFeeder? in
            defer { feeder = nil }
            return feeder
        }
        old?.stop()
    }

    /// A stream source has no device to lose.
    package func takeRouteChange() -> RouteChange? { nil }
}
