import AudioEngine
import Foundation
import PlayerCore
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
/// error view until the listener retries (`r`) or quits; quitting then returns the failure.
final class TerminalPlayback: Sendable {
    private let player: AudioPlayer
    private let connectivity: ConnectivityMonitor?
    private let language: Language
    private let bindings: KeyBindings
    private let model = Mutex(NowPlayingModel())
    private let quit = Mutex(false)

    /// True while the player passes through `idle` on its way to something new (MPRIS OpenUri).
    private let keepOpen: @Sendable () -> Bool

    init(
        player: AudioPlayer, connectivity: ConnectivityMonitor?, language: Language, bindings: KeyBindings,
        keepOpen: @escaping @Sendable () -> Bool = { false }
    ) {
        self.player = player
        self.keepOpen = keepOpen
        self.connectivity = connectivity
        self.language = language
        self.bindings = bindings
    }

    /// Runs until the end; returns the failure the listener left the player in, if any.
    func run(observer: (@Sendable (PlayerUpdate) -> Void)?) async throws(TerminalDisplayError) -> PlaybackError? {
        let display = try TerminalDisplay()
        TerminalRestore.install(display)
        let drawing = Thread { [self] in self.drawLoop(display) }
        drawing.name = "tonearm-terminal"
        drawing.start()
        // The offline banner comes and goes with the network.
        let network = connectivity.map { monitor in
            Task { [self] in
                for await online in await monitor.updates() { self.model.withLock { $0.networkChanged(online: online) } }
            }
        }
        defer { network?.cancel() }
        for await update in player.updates {
            observer?(update)
            let finishedOrGone = model.withLock { model -> Bool in
                model.apply(update)
                if case .state(let state, _, _) = update {
                    return (state.name == .finished || (state.name == .idle && model.started)) && !keepOpen()
                }
                return false
            }
            if finishedOrGone || quit.withLock({ $0 }) { await player.shutdown() }
        }
        quit.withLock { $0 = true }
        while !drawing.isFinished { try? await Task.sleep(for: .milliseconds(20)) }
        display.end()
        return model.withLock { model in
            if case .failed(let error, _, _) = model.state { error } else { nil }
        }
    }

    private func drawLoop(_ display: TerminalDisplay) {
        TerminalLoop.run(
            display, shouldQuit: { quit.withLock { $0 } }, onKey: handle,
            status: {
                // Spinners and countdowns move on their own: redraw them on each tick.
                model.withLock { TerminalLoop.Status(version: $0.version, moving: $0.state.showsLoading || $0.state.name == .reconnecting) }
            },
            frame: { tick, width, height in
                model.withLock { $0.screen(language: language, bindings: bindings, tick: tick) }.render(width: width, height: height)
            })
    }

    /// A key: the player intents its action stands for, the first one the state allows.
    private func handle(_ key: Key) {
        guard let action = bindings.action(for: key) else { return }
        let state = model.withLock { $0.state }
        switch action {
        case .quit:
            quit.withLock { $0 = true }
            Task { [player] in
                if state.allows(.stop) { try? await player.stop() }
                await player.shutdown()
            }
            return
        case .dismiss where !state.allows(.cancelRetry):
            model.withLock { $0.dismissInlineError() }
            return
        default:
            break
        }
        guard let allowed = action.playerActions.first(where: state.allows) else { return }
        let intent: PlayerEvent
        switch allowed {
        case .pause: intent = .pause
        case .resume: intent = .resume
        case .stop: intent = .stop
        case .skip: intent = .skip
        case .retry: intent = .retry
        case .retryNow: intent = .retryNow
        case .cancelRetry: intent = .cancelRetry
        case .seek:
            let position = model.withLock { $0.position } ?? 0
            let offset = action == .seekBackward ? -PlayerControl.seekBackwardSeconds : PlayerControl.seekForwardSeconds
            intent = .seek(to: max(0, position + offset))
        case .play, .reset:
            return
        }
        Task { [player] in try? await player.send(intent) }
    }
}

/// Gives the terminal back on every way out: a normal end, `exit()` from anywhere (a second
/// Ctrl-C, a fatal error message) and SIGTERM/SIGINT handled by the runner.
enum TerminalRestore {
    nonisolated(unsafe) private static var display: TerminalDisplay?

    static func install(_ display: TerminalDisplay) {
        Self.display = display
        atexit { TerminalRestore.display?.end() }
    }
}
