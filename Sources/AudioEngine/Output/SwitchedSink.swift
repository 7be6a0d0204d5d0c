import Logging
import PlayerCore
import Synchronization

/// An output its switch can turn off while the player plays. Off, the output is closed (a sound
/// server's stream ends, a FIFO's reader sees its end) and nothing is written to it; on again, it
/// is opened at the next write and gets what plays from then on.
///
/// The main output is also the player's clock: with it off, a stand-in (a null sink paced as the
/// output was) keeps time, so playback goes on at its pace and every position, fade and timer
/// stays true, as mpd plays on with its outputs disabled. An output beside the main one has no
/// stand-in: off, its writes are dropped.
///
/// Driven by the render thread alone, like every sink; the switch is the only thing another thread
/// touches.
package final class SwitchedSink: AudioSink, Sendable {
    private enum Opened {
        /// Not opened yet, or closed.
        case closed
        /// The output is on and open.
        case output
        /// The output is off; the stand-in, if there is one, is open.
        case off
    }

    private let output: any AudioSink
    private let toggle: OutputSwitch
    private let standIn: (any AudioSink)?
    private let logger: Logger
    /// Which one is open; render thread only (a `Mutex` only to be `Sendable`).
    private let opened = Mutex(Opened.closed)

    package init(_ output: any AudioSink, switch toggle: OutputSwitch, standIn: (any AudioSink)?, logger: Logger = Logger(label: "tonearm.output")) {
        self.output = output
        self.toggle = toggle
        self.standIn = standIn
        self.logger = logger
    }

    package var kind: String { output.kind }
    package var isRealtime: Bool { output.isRealtime }

    package func open() throws(PlaybackError) {
        if toggle.isOn {
            try output.open()
            opened.withLock { $0 = .output }
        } else {
            try standIn?.open()
            opened.withLock { $0 = .off }
        }
    }

    package func write(_ samples: UnsafePointer<Float>, frames: Int) throws(PlaybackError) {
        var current = opened.withLock { $0 }
        if current != .closed { current = try follow(toggle.isOn, from: current) }
        switch current {
        case .output: try output.write(samples, frames: frames)
        case .off: try standIn?.write(samples, frames: frames)
        case .closed: return
        }
    }

    /// Opens or closes the output as its switch now says, between two writes.
    private func follow(_ wanted: Bool, from current: Opened) throws(PlaybackError) -> Opened {
        switch (current, wanted) {
        case (.output, false):
            output.close()
            try standIn?.open()
            logger.info("output turned off", metadata: ["kind": "\(output.kind)"])
            opened.withLock { $0 = .off }
            return .off
        case (.off, true):
            do throws(PlaybackError) {
                try output.open()
            } catch {
                // It stays off, and says so: a client that turned it on reads it off again.
                toggle.set(false)
                logger.warning("output could not be turned on", metadata: ["kind": "\(output.kind)", "code": "\(error.code)"])
                return .off
            }
            standIn?.close()
            logger.info("output turned on", metadata: ["kind": "\(output.kind)"])
            opened.withLock { $0 = .output }
            return .output
        default:
            return current
        }
    }

    package func drain() throws(PlaybackError) {
        switch opened.withLock({ $0 }) {
        case .output: try output.drain()
        case .off: try standIn?.drain()
        case .closed: return
        }
    }

    package func close() {
        switch opened.withLock({ $0 }) {
        case .output: output.close()
        case .off: standIn?.close()
        case .closed: break
        }
        opened.withLock { $0 = .closed }
    }

    /// A route change is the output's, and only while it is on.
    package func takeRouteChange() -> RouteChange? {
        opened.withLock { $0 } == .output ? output.takeRouteChange() : nil
    }
}
