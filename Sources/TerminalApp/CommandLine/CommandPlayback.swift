import AudioEngine
import Foundation
import LibraryKit
import PlayerCore
import PlayerKit
import Streaming

/// Runs one playback from the command line: the settings and services become a `PlaybackSession`
/// and a `ConsolePlayback`, and the end becomes an exit status (0 when playback finishes or is
/// stopped; 1 with the error's message when it fails).
package struct CommandPlayback {
    /// What the command line asked for.
    package struct Settings: Sendable {
        package var output: OutputChoice?
        /// `--also-output`: a visualiser's pipe beside the main output.
        package var alsoOutput: OutputChoice?
        /// Render as fast as possible (`--fast`).
        package var fast: Bool
        /// `--events jsonl`.
        package var jsonEvents: Bool
        /// `--plain` and `--no-tui`.
        package var plain: Bool
        package var noScreen: Bool
        /// `--volume` was given: this run's volume is not the kept one.
        package var volumeGiven: Bool
        /// `--speed` was given: this run's speed is not the kept one.
        package var speedGiven: Bool
        /// `--loudness` or `--loudness-target` was given: this run's levelling is not the kept one.
        package var loudnessGiven: Bool

        /// The kept settings this run names itself.
        var named: ListeningSettings.Named {
            var named = ListeningSettings.Named()
            if volumeGiven { named.insert(.volume) }
            if speedGiven { named.insert(.speed) }
            if loudnessGiven { named.insert(.loudness) }
            return named
        }

        package init(
            output: OutputChoice?, fast: Bool, jsonEvents: Bool, plain: Bool, noScreen: Bool, volumeGiven: Bool, speedGiven: Bool,
            loudnessGiven: Bool = false
        ) {
            self.loudnessGiven = loudnessGiven
            self.speedGiven = speedGiven
            self.output = output
            self.fast = fast
            self.jsonEvents = jsonEvents
            self.plain = plain
            self.noScreen = noScreen
            self.volumeGiven = volumeGiven
        }
    }

    package var settings: Settings
    /// Where to render when no sound server answers (the demo); nil means that is an error.
    package var fallbackWAV: String?
    /// Render as fast as possible with a progress display (`tonearm render`).
    package var rendering: Bool
    /// Network sources, metadata and artwork services, connectivity.
    package var services: TonearmPlayer.Services
    /// The library, when the caller opened it already; otherwise it is opened for the analytics.
    package var library: LibraryContext?
    /// The player's wiring to the library, when the caller made it already (a queue follows its
    /// episodes through its observers); otherwise made from `library`.
    package var assembly: LibraryPlayerAssembly?
    /// Sees every update, in order, after the library's observers (a queue's recorder).
    package var observer: (@Sendable (PlayerUpdate) -> Void)?
    /// The library episode played, whose place is kept.
    package var episode: Int64?
    /// The podcast of the episode played, whose own speed applies.
    package var podcast: Int64?
    /// Asked at `finished`: true when the next part of a queue starts on the same player.
    package var continues: (@Sendable () -> Bool)?
    /// Told the player once its output is open, before anything plays (a queue's later parts
    /// are sent to it).
    package var opened: (@Sendable (AudioPlayer) -> Void)?

    package init(
        _ settings: Settings, fallbackWAV: String? = nil, rendering: Bool = false, services: TonearmPlayer.Services = .init(),
        library: LibraryContext? = nil, assembly: LibraryPlayerAssembly? = nil, episode: Int64? = nil, podcast: Int64? = nil,
        observer: (@Sendable (PlayerUpdate) -> Void)? = nil
    ) {
        self.assembly = assembly
        self.episode = episode
        self.podcast = podcast
        self.settings = settings
        self.fallbackWAV = fallbackWAV
        self.rendering = rendering
        self.services = services
        self.library = library
        self.observer = observer
    }

    /// Plays `item` (or shows why it cannot play: an episode without audio is a failure like any other).
    package func run(_ item: PlayerEvent.Replacement, configuration: PlayerStateMachine.Configuration) async {
        await run(preparing: { item }, configuration: configuration)
    }

    /// Plays what `prepare` returns, prepared while the library and the output open: reading the
    /// files' durations loads FFmpeg (tens of milliseconds before the first sample), and neither
    /// needs to wait for the other.
    package func run(
        preparing prepare: @escaping @Sendable () async -> PlayerEvent.Replacement, configuration: PlayerStateMachine.Configuration
    ) async {
        let preparing = Task { await prepare() }
        var services = services
        var configuration = configuration
        // The command's log: the player's decisions and every request of its sources and services.
        services.logger = CommandLog.logger
        services.network = NetworkClient(logger: CommandLog.logger)
        var assembly = assembly
        if assembly == nil {
            // Every error of every playback goes to the library's local analytics.
            let opened: LibraryContext?
            if let library { opened = library } else {
                opened = await LibraryContext.openForPlayback()
                CommandLog.startupStep("library opened")
            }
            assembly = opened.map { LibraryPlayerAssembly(library: $0, podcast: podcast, logger: CommandLog.logger) }
        }
        // How a failure came about, for `tonearm report`, even when the library cannot be opened.
        let timeline = assembly == nil ? FailureTimeline(logger: CommandLog.logger) : nil
        let observer: (@Sendable (PlayerUpdate) -> Void)? = { [observer, assembly] update in
            timeline?.observe(update)
            assembly?.observers.observe(update)
            observer?(update)
        }
        var like: (@Sendable () -> Bool)?
        if let assembly {
            // The volume, speed, levelling and trimming the listener last set, unless this run
            // names them; a change is kept, and so are measured loudness and every title heard.
            services = assembly.services(services)
            configuration = assembly.configuration(configuration, podcast: podcast, except: settings.named)
            let history = assembly.observers.history
            like = {
                do throws(PlaybackError) {
                    return try history.likeCurrent() != nil
                } catch {
                    CommandLog.logger.mappedError(error, level: .warning, "song not liked")
                    return false
                }
            }
        }
        let session: PlaybackSession
        do throws(PlaybackError) {
            let notice: OutputFallback?
            (session, notice) = try await PlaybackSession.open(
                asked: settings.output, also: settings.alsoOutput, fallbackWAV: fallbackWAV, fast: settings.fast || rendering, configuration: configuration,
                services: services)
            if let notice { FileHandle.standardError.write(Data(notice.line(in: .current).utf8)) }
            CommandLog.startupStep("output opened")
            opened?(session.player)
        } catch {
            if let analytics = services.analytics { await analytics.record(error, operation: "openOutput") }
            // A running daemon is named with its pid and how to reach it.
            CommandFailure.exit(error, detail: error.code == .daemonRunning ? error.underlying : nil)
        }
        var item = await preparing.value
        if let episode { assembly?.observers.places.follow(item, episode: episode) }
        item = await assembly?.prepared(item, loudness: configuration.loudness.mode) ?? item
        let fast = session.mode == .asFastAsPossible
        var console = ConsolePlayback(
            interface: ConsolePlayback.interface(
                plain: settings.plain, noScreen: settings.noScreen, machineOutput: settings.jsonEvents || rendering || fast))
        console.jsonEvents = settings.jsonEvents
        let request: PlayRequest? = if case .play(let request) = item { request } else { nil }
        console.progress = rendering ? RenderProgress(total: request?.playLength(configuration: configuration), language: .current) : nil
        console.connectivity = services.connectivity
        console.mpris = !(rendering || fast)
        console.like = like
        console.continues = continues
        do throws(PlaybackError) {
            if let failure = try await console.run(.replace(item), on: session, observer: observer) { CommandFailure.exit(failure) }
        } catch {
            CommandFailure.exit(error)
        }
        if case .wav(let path, _) = session.output, !console.jsonEvents {
            FileHandle.standardError.write(Data("Wrote \(path)\n".utf8))
        }
    }
}
