import AudioEngine
import Dispatch
import Foundation
import PlayerCore
import Synchronization

/// One player as a program runs it: made for the chosen output, started, told what the terminal's
/// signals mean, and taken down so that an episode's place is saved and every error is recorded.
/// The headless run, Now Playing and the library screen all run their player through one.
public final class PlaybackSession: Sendable {
    public let output: OutputChoice
    /// The output beside the main one (`--also-output`), if any.
    public let alsoOutput: OutputChoice?
    /// Real time, or as fast as the output takes it (a file or the null output).
    public let mode: RenderMode
    private let composed: TonearmPlayer
    /// The outputs' switches, the main output's first (MPD's `enableoutput`/`disableoutput`).
    public let outputSwitches: [OutputSwitch]

    public var player: AudioPlayer { composed.player }
    /// The retries the session's services may spend (read by metrics).
    public var retryBudget: RetryBudget { composed.retryBudget }

    /// Makes and starts the player; fails with the output's typed error, or with `daemonRunning`
    /// when the user's `tonearm serve` owns the machine's sound and this is not that daemon.
    public init(
        output: OutputChoice, alsoOutput: OutputChoice? = nil, mode: RenderMode = .realtime,
        configuration: PlayerStateMachine.Configuration = .init(), services: TonearmPlayer.Services
    ) async throws(PlaybackError) {
        if output.isSharedSound, let daemon = DaemonLock.running() { throw daemon.refusal }
        self.output = output
        self.alsoOutput = alsoOutput
        self.mode = mode
        let (sink, switches) = output.makeSink(realtime: mode == .realtime, beside: alsoOutput)
        outputSwitches = switches
        composed = TonearmPlayer(
            output: sink, options: .init(
                configuration: configuration, mode: mode, network: services.buffering, loudnessStore: services.loudnessStore),
            services: services)
        try await composed.player.start()
    }

    /// Makes the session on the output the listener asked for, or else PulseAudio when a server
    /// answers, or else `fallbackWAV` rendered as fast as possible (said in `notice`, a value the
    /// front end words in the listener's language).
    public static func open(
        asked: OutputChoice?, also: OutputChoice? = nil, fallbackWAV: String? = nil, fast: Bool,
        configuration: PlayerStateMachine.Configuration,
        services: TonearmPlayer.Services
    ) async throws(PlaybackError) -> (session: PlaybackSession, notice: OutputFallback?) {
        var fast = fast
        var notice: OutputFallback?
        let output: OutputChoice
        if let asked {
            output = asked
        } else {
            let automatic = try await OutputChoice.automatic(fallbackWAV: fallbackWAV)
            output = automatic.choice
            if automatic.isFallback {
                fast = true
                notice = OutputFallback(file: fallbackWAV ?? "")
            }
        }
        if fast && !output.canRenderFast {
            throw PlaybackError(.audioOutputUnavailable, underlying: "rendering as fast as possible needs a file or the null output")
        }
        let session = try await PlaybackSession(
            output: output, alsoOutput: also, mode: fast ? .asFastAsPossible : .realtime, configuration: configuration,
            services: services)
        return (session, notice)
    }

    /// SIGINT, SIGTERM and SIGHUP (Ctrl-C, a kill, a closed terminal): the first calls `first`
    /// (stop playback, or end a screen so the terminal is restored); a second one ends the process
    /// at once with status 130, for a listener who does not want to wait for the fade.
    public static func onSignals(_ first: @escaping @Sendable () -> Void) {
        SignalHandlers.install(first)
    }

    /// The first signal stops playback with its fade (so the session ends as on stop); when
    /// nothing can be stopped, the player is shut down.
    public func stopOnSignals() {
        Self.onSignals { [player] in
            Task(executorPreference: player.executor) {
                do { try await player.stop() } catch { await player.shutdown() }
            }
        }
    }

    /// Stops what plays (an episode's place is saved), shuts the player and its services down,
    /// and waits until every error is recorded.
    public func finish() async {
        if await player.state.allows(.stop) { try? await player.stop() }
        await composed.shutdown()
        await player.flushAnalytics()
    }
}
