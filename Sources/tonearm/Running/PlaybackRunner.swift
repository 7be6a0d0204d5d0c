import ArgumentParser
import AudioEngine
import Foundation
import PlayerCore
import PlayerKit
import MPRIS
import Streaming
import TerminalApp
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
        var fast = options.fast || rendering
        let output: OutputChoice
        do throws(PlaybackError) {
            if let asked = options.output {
                output = asked
            } else {
                let (choice, isFallback) = try OutputChoice.automatic(fallbackWAV: fallbackWAV)
                output = choice
                if isFallback, let fallbackWAV {
                    fast = true
                    FileHandle.standardError.write(Data("No sound server answered; rendering to \(fallbackWAV) instead.\n".utf8))
                }
            }
        } catch {
            await Self.fail(error, operation: "openOutput", analytics: services.analytics)
        }
        if fast && !output.canRenderFast { throw ValidationError("rendering as fast as possible needs --output wav:PATH or --output null") }

        let session: PlaybackSession
        do {
            session = try await PlaybackSession(
                output: output, mode: fast ? .asFastAsPossible : .realtime, configuration: configuration, services: services)
        } catch {
            await Self.fail(error, operation: "openOutput", analytics: services.analytics)
        }
        let player = session.player
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
        session.stopOnSignals()
        var interface = options.interface(machineOutput: jsonl || progress != nil || fast)
        if interface != .terminal, interface == .plain || isatty(STDIN_FILENO) == 0 { LinePlayback.forwardCommands(to: player) }
        do {
            try await player.send(intent)
        } catch {
            ErrorOutput.fail(error)
        }
        let (bindings, warning) = TerminalConfig.bindings()
        if let warning, interface == .terminal { FileHandle.standardError.write(Data("tonearm: \(TextSanitizer.singleLine(warning, maxLength: 300))\n".utf8)) }
        var failure: PlaybackError?
        do throws(TerminalDisplayError) {
            guard interface == .terminal else { throw TerminalDisplayError.unusable }
            failure = try await NowPlayingController(
                player: player, connectivity: services.connectivity, language: language, bindings: bindings
            ).run(observer: observer)
        } catch {
            // Not a terminal, or curses cannot drive this one: the line interface.
            if interface == .terminal {
                interface = .lines
                LinePlayback.forwardCommands(to: player)
            }
            failure = await LinePlayback(
                player: player, style: interface == .plain ? .plain : .lines, jsonEvents: jsonl, progress: progress, language: language,
                bindings: bindings
            ).run(observer: observer)
        }
        await player.flushAnalytics()
        if let failure { ErrorOutput.fail(failure) }
        if case .wav(let path, _) = output, !jsonl {
            FileHandle.standardError.write(Data("Wrote \(path)\n".utf8))
        }
        withExtendedLifetime(session) {}
    }

    /// Records a failure that happened before the player could (no output), then exits with it.
    private static func fail(_ error: PlaybackError, operation: AnalyticsIdentifier, analytics: ErrorAnalytics?) async -> Never {
        if let analytics { await analytics.record(error, operation: operation) }
        ErrorOutput.fail(error)
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
