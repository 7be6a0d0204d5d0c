import ArgumentParser
import AudioEngine
import Foundation
import PlayerCore
import PlayerKit
import Streaming
import TerminalUI

/// Runs one playback from the command line: chooses the output, starts the player, feeds it
/// stdin commands and signals, prints events or status, and turns the end into an exit status
/// (0 when playback finishes or is stopped; 1 with the error's message when it fails).
struct PlaybackRunner {
    var options: PlaybackOptions
    /// Where to render when no sound server answers (the demo); nil means that is an error.
    var fallbackWAV: String?
    /// Render as fast as possible with a progress display (`tonearm render`).
    var rendering = false
    /// Network sources, metadata and artwork services, connectivity.
    var services = TonearmPlayer.Services()
    /// The library, when the caller opened it already; otherwise it is opened for the analytics.
    var library: LibraryContext?
    /// Sees every update, in order (an episode's progress recorder).
    var observer: (@Sendable (PlayerUpdate) -> Void)?

    init(
        options: PlaybackOptions, fallbackWAV: String? = nil, rendering: Bool = false, services: TonearmPlayer.Services = .init(),
        library: LibraryContext? = nil, observer: (@Sendable (PlayerUpdate) -> Void)? = nil
    ) {
        self.options = options
        self.fallbackWAV = fallbackWAV
        self.rendering = rendering
        self.services = services
        self.library = library
        self.observer = observer
    }

    func run(_ request: PlayRequest, configuration: PlayerStateMachine.Configuration) async throws {
        try await run(.play(request), expected: request, configuration: configuration)
    }

    /// Plays `intent` (`.play`, or `.cannotPlay` for an episode without audio, which the player
    /// shows as a failure like any other).
    func run(_ intent: PlayerEvent, expected request: PlayRequest?, configuration: PlayerStateMachine.Configuration) async throws {
        var services = services
        // The command's log: the player's decisions and every request of its sources and services.
        services.logger = CLILog.logger
        services.network = NetworkClient(logger: CLILog.logger)
        if services.analytics == nil {
            // Every error of every playback goes to the library's local analytics.
            let opened: LibraryContext?
            if let library { opened = library } else { opened = await LibraryContext.openForPlayback() }
            services.analytics = opened?.analytics
            if let opened { services.network = opened.network }
        }
        let language = Language.current
        var output = options.output
        var fast = options.fast || rendering
        if output == nil {
            if PulseAudioSink.serverAnswers(server: nil, timeout: 1.5) {
                output = .pulse
            } else if let fallbackWAV {
                output = .wav(path: fallbackWAV, float: false)
                fast = true
                FileHandle.standardError.write(Data("No sound server answered; rendering to \(fallbackWAV) instead.\n".utf8))
            } else {
                await Self.fail(PlaybackError(.audioOutputUnavailable), operation: "openOutput", analytics: services.analytics)
            }
        }
        guard let output else { return }
        if fast && !output.canRenderFast { throw ValidationError("rendering as fast as possible needs --output wav:PATH or --output null") }

        let mode: RenderMode = fast ? .asFastAsPossible : .realtime
        let composed = TonearmPlayer(
            output: output.makeSink(realtime: !fast), options: .init(configuration: configuration, mode: mode), services: services)
        let player = composed.player
        defer { withExtendedLifetime(composed) {} }
        do {
            try await player.start()
        } catch {
            await Self.fail(error, operation: "openOutput", analytics: services.analytics)
        }

        let jsonl = options.events == .jsonl
        // The desktop's media keys and widgets, when there is a session bus (a render has no one
        // to control it).
        let mpris = rendering || fast ? nil : MPRISBridge.start(player: player, quit: { Task { try? await player.stop() } })
        defer { mpris?.stop() }
        let observer: (@Sendable (PlayerUpdate) -> Void)? = { [observer] update in
            observer?(update)
            mpris?.observe(update)
        }

        let progress = rendering
            ? RenderProgress(total: request.flatMap { Self.expectedLength(of: $0, configuration: configuration) }, language: language) : nil
        listenForSignals(player)
        var interface = options.interface(machineOutput: jsonl || progress != nil || fast)
        if interface != .terminal, interface == .plain || isatty(STDIN_FILENO) == 0 { forwardCommands(to: player) }

        do {
            try await player.send(intent)
        } catch {
            ErrorOutput.fail(error)
        }

        if interface == .terminal {
            let (bindings, warning) = TerminalConfig.bindings()
            if let warning { FileHandle.standardError.write(Data("tonearm: \(TextSanitizer.singleLine(warning, maxLength: 300))\n".utf8)) }
            do {
                let failure = try await TerminalPlayback(
                    player: player, connectivity: services.connectivity, language: language, bindings: bindings,
                    keepOpen: { mpris?.isReplacing == true }).run(observer: observer)
                await player.flushAnalytics()
                if let failure { ErrorOutput.fail(failure) }
                return
            } catch {
                // curses cannot drive this terminal: the line interface instead.
                interface = .lines
                forwardCommands(to: player)
            }
        }
        var announcer = PlainAnnouncer(language: language, bindings: TerminalConfig.bindings().bindings)
        var latest = NowPlayingModel()

        var started = false
        var lastName: PlayerState.Name?
        var failure: PlaybackError?
        for await update in player.updates {
            observer?(update)
            // Events are a live interface: each line is written (unbuffered) when it happens, so a
            // reader on a pipe sees it at once.
            if jsonl { FileHandle.standardOutput.write(Data((EventLine.json(for: update, language: language) + "\n").utf8)) }
            progress?.update(audioTime: update.audioTime)
            latest.apply(update)
            guard case .state(let state, _, _) = update else { continue }
            progress?.note(state)
            // Lines are written unbuffered, so a screen reader (or a script on a pipe) hears each at once.
            if interface == .plain {
                for line in announcer.lines(for: latest.view(language: language)) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
            } else if !jsonl && progress == nil && state.name != lastName {
                FileHandle.standardOutput.write(Data((state.displayText(in: language) + "\n").utf8))
            }
            lastName = state.name
            if state.name != .idle { started = true }
            switch state {
            case .finished where mpris?.isReplacing != true:
                await player.shutdown()
            case .idle where started && mpris?.isReplacing != true:
                await player.shutdown()
            case .failed(let error, let recoverable, _):
                failure = error
                // Plain mode has just said "press r": wait for it (or for stop, or the end of input).
                if !(interface == .plain && recoverable) { await player.shutdown() }
            default:
                failure = nil
            }
        }
        progress?.finish()
        await player.flushAnalytics()
        if let failure { ErrorOutput.fail(failure) }
        if case .wav(let path, _) = output, !jsonl {
            FileHandle.standardError.write(Data("Wrote \(path)\n".utf8))
        }
    }

    /// Records a failure that happened before the player could (no output), then exits with it.
    private static func fail(_ error: PlaybackError, operation: AnalyticsIdentifier, analytics: ErrorAnalytics?) async -> Never {
        if let analytics { await analytics.record(error, operation: operation) }
        ErrorOutput.fail(error)
    }

    private func listenForSignals(_ player: AudioPlayer) {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
            nonisolated(unsafe) var count = 0
            source.setEventHandler {
                count += 1
                if count > 1 { Foundation.exit(130) }
                Task {
                    do { try await player.stop() } catch { await player.shutdown() }
                }
            }
            source.resume()
            SignalSources.keep(source)
        }
    }

    private func forwardCommands(to player: AudioPlayer) {
        Task.detached {
            for await line in HeadlessInput.lines() {
                guard let parsed = HeadlessInput.parse(line) else {
                    if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                        FileHandle.standardError.write(Data("tonearm: unknown command: \(TextSanitizer.singleLine(line, maxLength: 80))\n".utf8))
                    }
                    continue
                }
                // During a reconnect countdown, "retry" means "retry now".
                let now = await player.state
                let intent: PlayerEvent = parsed == .retry && now.name == .reconnecting ? .retryNow : parsed
                do {
                    try await player.send(intent)
                } catch {
                    FileHandle.standardError.write(Data("tonearm: \(PlaybackError.from(error).message(in: Language.current))\n".utf8))
                }
            }
            // The controller is gone. If playback waits for a resume nobody can send any more,
            // stop rather than stay paused forever; otherwise play on to the end.
            let state = await player.state
            if state.canResume {
                try? await player.stop()
            } else if state.name == .failed {
                await player.shutdown()
            }
        }
    }

    /// The length of the whole rendering: items minus their crossfade overlaps.
    static func expectedLength(of request: PlayRequest, configuration: PlayerStateMachine.Configuration) -> Double? {
        var total = 0.0
        for (i, item) in request.items.enumerated() {
            guard let d = item.track.duration else { return nil }
            total += d
            if i + 1 < request.items.count {
                let spec = item.crossfadeIntoNext ?? configuration.defaultCrossfade
                total -= spec.effectiveDuration(outgoing: d, incoming: request.items[i + 1].track.duration)
            }
        }
        return total
    }
}

/// Keeps signal sources alive for the life of the process.
enum SignalSources {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    static func keep(_ source: any DispatchSourceSignal) { sources.append(source) }
}
