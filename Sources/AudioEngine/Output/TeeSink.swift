import Logging
import PlayerCore
import Synchronization

/// The main output with another one beside it (`--also-output`): every block goes to both.
///
/// The main sink is the output: its kind, pacing, errors, drain and route changes are the
/// player's. The second one is best-effort: it is written after the main one, never paces (make it
/// non-real-time), and whatever it throws is logged once and never reaches playback; a second
/// output that could not open is tried again when the main one reopens.
package final class TeeSink: AudioSink, Sendable {
    package let main: any AudioSink
    package let beside: any AudioSink
    private let logger: Logger
    /// The second output is open and has not failed since.
    private let besideWorks = Mutex(false)

    package init(main: any AudioSink, beside: any AudioSink, logger: Logger = Logger(label: "tonearm.output")) {
        self.main = main
        self.beside = beside
        self.logger = logger
    }

    package var kind: String { main.kind }
    package var isRealtime: Bool { main.isRealtime }

    package func open() throws(PlaybackError) {
        try main.open()
        do throws(PlaybackError) {
            try beside.open()
            besideWorks.withLock { $0 = true }
        } catch {
            besideWorks.withLock { $0 = false }
            logger.warning("second output unavailable", metadata: ["kind": "\(beside.kind)", "code": "\(error.code)"])
        }
    }

    package func write(_ samples: UnsafePointer<Float>, frames: Int) throws(PlaybackError) {
        try main.write(samples, frames: frames)
        guard besideWorks.withLock({ $0 }) else { return }
        do throws(PlaybackError) {
            try beside.write(samples, frames: frames)
        } catch {
            besideWorks.withLock { $0 = false }
            logger.warning("second output failed; playback goes on without it", metadata: ["kind": "\(beside.kind)", "code": "\(error.code)"])
        }
    }

    package func drain() throws(PlaybackError) { try main.drain() }

    package func close() {
        main.close()
        beside.close()
        besideWorks.withLock { $0 = false }
    }

    package func takeRouteChange() -> RouteChange? { main.takeRouteChange() }
}
