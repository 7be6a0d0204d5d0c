import ArgumentParser
import Daemon
import Foundation
import LibraryKit
import PlayerCore
import PlayerKit
import TerminalApp

/// `tonearm serve`: the user's one player as a daemon, headless, until SIGTERM (parsing and
/// wiring only; the daemon is `DaemonRunner`).
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", 
        abstract: "Run one player and the library as a daemon, headless, until stopped (SIGTERM or Ctrl-C fades out and saves places).",
        discussion: """
            One daemon per user: a second `tonearm serve` fails, and other commands refuse to open the \
            sound output while it runs (files and --output null stay allowed). Logs go to the journal \
            under systemd, otherwise to --log-file or the standard log file; SIGHUP reopens the file. \
            contrib/systemd/tonearm.service runs it as a systemd user service.
            """)

    @Argument(help: "Audio files, cue sheets (.cue: each track) or http(s) URLs to play when the daemon starts, in order.")
    var sources: [String] = []

    @Option(help: "Play a podcast episode from the library when the daemon starts (resumes where you stopped).")
    var episode: Int64?

    @OptionGroup var daemon: DaemonArguments
    @OptionGroup var playback: PlaybackOptions
    @OptionGroup var stream: StreamOptions
    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if episode != nil, !sources.isEmpty { throw ValidationError("give sources or --episode, not both") }
        let notApplying = [("--fast", playback.fast), ("--events", playback.events != nil), ("--plain", playback.plain), ("--no-tui", playback.noTui)]
        if let (name, _) = notApplying.first(where: { $0.1 }) { throw ValidationError("\(name) does not apply to serve: it has no terminal") }
    }

    func run() async throws {
        let target = DaemonLogTarget.choose(
            logFile: logging.logFile == nil ? nil : logging.fileURL, journalConnected: JournalStream.isStderrConnected(),
            standardFile: LogFileLocation.defaultURL())
        let log = DaemonLog.start(target, level: logging.logLevel)
        var options = DaemonOptions(
            output: playback.output, alsoOutput: playback.alsoOutput, mpd: try daemon.mpdSettings(), mpdLimits: try daemon.mpdLimits(),
            musicDirectory: daemon.musicFolder, log: target, metrics: try daemon.metricsAddress(), learnedRetries: TerminalConfig.learnedRetries().rule)
        options.playlistDirectory = daemon.playlistFolder
        let tracks: [Track]
        do throws(PlaybackError) { tracks = try Track.commandLineSources(sources, finite: stream.finite) } catch {
            // A cue sheet that cannot be read stops the start, with its message.
            CommandFailure.exit(error)
        }
        let services = Self.services(for: options, startup: startup(tracks))
        let runner = DaemonRunner(
            options: options, configuration: playback.configuration(), named: namedSettings, playerServices: stream.services(for: tracks),
            services: services, log: log)
        do throws(PlaybackError) {
            try await runner.run()
        } catch {
            log.logger.error("daemon not started", metadata: ["code": "\(error.code.rawValue)", "errorType": "\(error.errorType)"])
            // A running daemon is named with its pid and how to reach it.
            CommandFailure.exit(error, detail: error.code == .daemonRunning ? error.underlying : nil)
        }
    }

    /// The kept settings this run names itself (the saved ones apply to the rest).
    private var namedSettings: ListeningSettings.Named {
        var named = ListeningSettings.Named()
        if playback.volume != nil { named.insert(.volume) }
        if playback.speed != nil { named.insert(.speed) }
        if playback.loudness != nil || playback.loudnessTarget != nil { named.insert(.loudness) }
        return named
    }

    /// What plays when the daemon starts, if anything.
    private func startup(_ tracks: [Track]) -> StartupPlayback.Item? {
        if let episode { return .episode(episode) }
        return PlayRequest(items: tracks.map { QueueItem(track: $0) }).map { .request($0) }
    }

    /// The services the daemon runs besides its player: the MPD protocol (always on the user's
    /// own socket, on the network when `options.mpd` says so), the alarms handed to it, the
    /// metrics when asked for, opt-in sharing of error counts when config.toml names an endpoint
    /// (it sends only with the listener's consent), and what plays at start.
    static func services(for options: DaemonOptions, startup: StartupPlayback.Item?) -> [any DaemonService] {
        var services: [any DaemonService] = [MPDDaemonService(), AlarmDaemonService()]
        if case .tcp(let host, let port)? = options.metrics { services.append(MetricsDaemonService(host: host, port: Int(port))) }
        let sharing = TerminalConfig.analyticsSharing()
        if let endpoint = sharing.endpoint { services.append(AnalyticsSharingDaemonService(endpoint: endpoint, rule: sharing.rule)) }
        if let startup { services.append(StartupPlayback(startup)) }
        return services
    }
}
