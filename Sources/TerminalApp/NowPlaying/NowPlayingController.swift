import AudioEngine
import Foundation
import PlayerCore
import PlayerKit
import Presentation
import Services
import Synchronization
import TerminalUI

/// Now Playing on the terminal for one playback: the player's updates feed a `NowPlayingModel`,
/// and one thread owns the terminal (ncurses is not thread-safe), alternating a key read (50 ms
/// at most) with a redraw when something changed, so it draws at most 20 frames a second and not
/// at all while nothing moves.
///
/// It ends when playback finishes or is stopped, or on `q`. A failure stays on screen with its
/// error view until the listener retries (`r`, or space) or quits; quitting then returns the
/// failure.
package final class NowPlayingController: Sendable {
    private let player: AudioPlayer
    private let connectivity: ConnectivityMonitor?
    private let language: Language
    private let bindings: KeyBindings
    private let model = Mutex(NowPlayingModel())
    private let quit = Mutex(false)
    private let ending: Mutex<SessionEnd>
    private let like: (@Sendable () -> Bool)?
    /// A share line waiting to go to the clipboard (written by the drawing thread, between frames).
    private let clipboard = Mutex<String?>(nil)

    /// - Parameters:
    ///   - like: likes the song playing (`l`); true when there was one to like.
    ///   - continues: asked at `finished`: true when the next part of a queue starts instead.
    package init(
        player: AudioPlayer, connectivity: ConnectivityMonitor?, language: Language, bindings: KeyBindings, like: (@Sendable () -> Bool)? = nil,
        continues: (@Sendable () -> Bool)? = nil
    ) {
        self.like = like
        ending = Mutex(SessionEnd(onFailure: .waits, continues: continues))
        self.player = player
        self.connectivity = connectivity
        self.language = language
        self.bindings = bindings
    }

    /// Runs until the end; returns the failure the listener left the player in, if any.
    package func run(observer: (@Sendable (PlayerUpdate) -> Void)?) async throws(TerminalDisplayError) -> PlaybackError? {
        let display = try TerminalDisplay()
        TerminalRestore.install(display)
        let drawn = AsyncStream.makeStream(of: Void.self)
        let drawing = Thread { [self] in
            self.drawLoop(display)
            drawn.continuation.finish()
        }
        drawing.name = "tonearm-terminal"
        drawing.start()
        // The offline banner comes and goes with the network.
        let network = connectivity.map { monitor in
            Task { [self] in
                for await online in await monitor.updates() { self.model.withLock { $0.networkChanged(online: online) } }
            }
        }
        defer { network?.cancel() }
        await player.consumeUpdates { updates in
            for await update in updates {
                observer?(update)
                model.withLock { $0.apply(update) }
                let over = if case .state(let state, _, _) = update { ending.withLock { $0.isOver(after: state) } } else { false }
                if over || quit.withLock({ $0 }) { await player.shutdown() }
            }
        }
        quit.withLock { $0 = true }
        // The drawing thread leaves within one key read (50 ms) and hands the terminal back.
        for await _ in drawn.stream {}
        display.end()
        return model.withLock { model in
            if case .failed(let error, _, _) = model.state { error } else { nil }
        }
    }

    private func drawLoop(_ display: TerminalDisplay) {
        let tap = player.outputTap
        // The drawing thread's own: the meter, how far the tap had recorded when it was last
        // measured, and what the last frame showed of it.
        var meter = LevelMeterViewState.silent
        var seen: Int64 = 0
        var drawnMeter: [Int]?
        var quietTicks = 0
        TerminalLoop.run(
            display, shouldQuit: { quit.withLock { $0 } }, onKey: handle,
            status: {
                let (status, metering) = model.withLock {
                    // Spinners and countdowns move on their own: redraw them on each tick.
                    (TerminalLoop.Status(version: $0.version, moving: $0.state.showsLoading || $0.state.name == .reconnecting),
                     $0.showsLevelMeter)
                }
                guard metering else {
                    drawnMeter = nil
                    return status
                }
                // The meter moves while sound is sent or its bars fall; a redraw only when what it
                // shows changed.
                // A tick without a new block is not yet silence (blocks come every ~43 ms, ticks
                // every 50 ms); two in a row are.
                let recorded = tap.recorded
                if recorded != seen {
                    meter = meter.following(.measure(tap.latest().samples))
                    seen = recorded
                    quietTicks = 0
                } else if !meter.isAtRest {
                    quietTicks += 1
                    if quietTicks > 1 { meter = meter.following(.silent) }
                }
                return TerminalLoop.Status(version: status.version, moving: status.moving || meter.displayKey != drawnMeter)
            },
            clipboard: { clipboard.withLock { pending in defer { pending = nil }; return pending } },
            frame: { tick, width, height in
                var screen = model.withLock { $0.screen(language: language, bindings: bindings, tick: tick) }
                if model.withLock({ $0.showsLevelMeter }) {
                    screen.levelMeter = meter
                    drawnMeter = meter.displayKey
                }
                return screen.render(width: width, height: height)
            })
    }

    /// A key: the player command its action stands for, as the state reads it.
    func handle(_ key: Key) {
        guard let action = bindings.action(for: key) else { return }
        let (state, position) = model.withLock { ($0.state, $0.position) }
        switch action {
        case .quit:
            quit.withLock { $0 = true }
            Task(executorPreference: player.executor) { [player] in
                if state.allows(.stop) { try? await player.stop() }
                await player.shutdown()
            }
            return
        case .dismiss where !state.allows(.cancelRetry):
            model.withLock { $0.dismissInlineError() }
            return
        case .like:
            if like?() == true { model.withLock { $0.markLiked() } }
            return
        case .share:
            if let line = model.withLock({ $0.share() }) { clipboard.withLock { $0 = line } }
            return
        case .chapters:
            model.withLock { $0.toggleChapters() }
            return
        case .transcript:
            model.withLock { $0.toggleTranscript() }
            return
        case .up where model.withLock({ $0.showsTranscript }):
            model.withLock { $0.moveTranscriptSelection(by: -1) }
            return
        case .down where model.withLock({ $0.showsTranscript }):
            model.withLock { $0.moveTranscriptSelection(by: 1) }
            return
        case .play where model.withLock({ $0.showsTranscript }):
            // Enter on a line of the transcript: play from where it is said.
            guard let start = model.withLock({ $0.takeTranscriptSelection() }), state.allows(.seek) else { return }
            Task(executorPreference: player.executor) { [player] in try? await player.send(.seek(to: start)) }
            return
        case .levelMeter:
            // The render thread copies its blocks only while a meter is shown.
            player.outputTap.isWatched = model.withLock {
                $0.toggleLevelMeter()
                return $0.showsLevelMeter
            }
            return
        default:
            break
        }
        let (loudness, chapters) = model.withLock { ($0.loudness ?? .off, $0.chapters) }
        guard let intent = action.command?.intent(in: state, position: position, loudness: loudness, chapters: chapters) else { return }
        Task(executorPreference: player.executor) { [player] in try? await player.send(intent) }
    }
}

/// Gives the terminal back on every way out: a normal end, `exit()` from anywhere (a second
/// signal, a fatal error message) and the first SIGTERM or SIGINT, which ends the screen's loop.
enum TerminalRestore {
    nonisolated(unsafe) private static var display: TerminalDisplay?

    static func install(_ display: TerminalDisplay) {
        Self.display = display
        atexit { TerminalRestore.display?.end() }
    }
}
