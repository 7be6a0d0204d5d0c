import AudioEngine
import Foundation
import LibraryKit
import Logging
import MPRIS
import PlayerCore
import PlayerKit
import Synchronization

/// `tonearm serve`: one player on one output and the library, open until SIGTERM or SIGINT,
/// headless. It holds the user's daemon lock, publishes where its services listen, tells systemd
/// when it is ready, reopens its log on SIGHUP, and at the end fades out, saves what it must and
/// returns (the process then exits 0). Playback that finishes leaves the daemon running.
package struct DaemonRunner: Sendable {
    package var options: DaemonOptions
    /// The player's configuration from the command line (crossfade, fade-out, volume...).
    package var configuration: PlayerStateMachine.Configuration
    /// The kept settings the command line named, so the saved ones do not replace them.
    package var named: ListeningSettings.Named
    /// Network sources' services (buffering, status APIs); the library's network client and
    /// analytics replace theirs.
    package var playerServices: TonearmPlayer.Services
    package var services: [any DaemonService]
    package var runtimeDirectory: DaemonRuntimeDirectory
    package var log: DaemonLog

    package init(
        options: DaemonOptions, configuration: PlayerStateMachine.Configuration, named: ListeningSettings.Named = [],
        playerServices: TonearmPlayer.Services = .init(), services: [any DaemonService], runtimeDirectory: DaemonRuntimeDirectory = .resolve(),
        log: DaemonLog
    ) {
        self.options = options
        self.configuration = configuration
        self.named = named
        self.playerServices = playerServices
        self.services = services
        self.runtimeDirectory = runtimeDirectory
        self.log = log
    }

    /// Runs the daemon until it is told to end.
    /// - Throws: what kept it from starting: `daemonRunning` (another daemon holds the lock), the
    ///   library's or the output's error, a service's.
    package func run() async throws(PlaybackError) {
        let logger = log.logger
        let (events, eventSink) = AsyncStream.makeStream(of: DaemonSignal.self)
        let signals = DaemonSignals.install()
        let forwarding = Task {
            for await signal in signals { eventSink.yield(signal) }
        }
        defer { forwarding.cancel() }
        let shutdown: @Sendable () -> Void = { eventSink.yield(.terminate) }

        let lock = try DaemonLock.acquire(in: runtimeDirectory)
        defer { lock.release() }
        let library = try await LibraryContext.open(learnedRetries: options.learnedRetries, logger: logger)
        if library.recovery != nil { logger.warning("library: damaged database kept aside") }
        let assembly = LibraryPlayerAssembly(library: library, logger: logger)
        let session = try await openSession(assembly)
        let player = session.player

        let mpris = MPRISBridge.start(player: player, quit: shutdown, warn: { logger.notice("\($0)") })
        let watch = StateWatch()
        let observing = StartedServices()
        let feeding = feed(player, to: mpris, observing: observing, watch: watch, observers: assembly.observers)

        let context = DaemonContext(
            session: session, assembly: assembly, options: options, configuration: configuration, runtimeDirectory: runtimeDirectory,
            logger: logger, shutdown: shutdown)
        var started: [any DaemonService] = []
        var endpoints: [DaemonEndpoint] = []
        do throws(PlaybackError) {
            for service in services {
                observing.add(service)
                started.append(service)
                endpoints += try await service.start(context)
                logger.info("service started", metadata: ["service": "\(service.name)"])
            }
            try lock.publish(DaemonInfo(pid: getpid(), output: session.output.description, endpoints: endpoints))
        } catch {
            logger.error("daemon not started", metadata: ["code": "\(error.code.rawValue)", "errorType": "\(error.errorType)"])
            await takeDown(session, feeding: feeding, services: started, mpris: mpris, watch: watch)
            throw error
        }
        SystemdNotify.ready()
        logger.notice(
            "serving", metadata: ["pid": "\(getpid())", "output": "\(session.output.description)", "endpoints": "\(endpoints.map(\.address))"])

        for await event in events {
            switch event {
            case .reopenLog: log.reopen()
            case .terminate:
                SystemdNotify.stopping()
                logger.notice("stopping")
                await takeDown(session, feeding: feeding, services: started, mpris: mpris, watch: watch)
                logger.notice("stopped")
                return
            }
        }
    }

    /// The player on the asked output (PulseAudio when none was named and a server answers), with
    /// the volume, speed and levelling the listener last set unless the command line named them.
    private func openSession(_ assembly: LibraryPlayerAssembly) async throws(PlaybackError) -> PlaybackSession {
        do throws(PlaybackError) {
            return try await PlaybackSession.open(
                asked: options.output, also: options.alsoOutput, fast: false, configuration: assembly.configuration(configuration, except: named),
                services: assembly.services(playerServices)
            ).session
        } catch {
            await assembly.library.analytics.record(error, operation: "openOutput")
            throw error
        }
    }

    /// The one consumer of the player's updates: each, in order, reaches MPRIS, the library's
    /// observers and every started service. Ends when the player shuts down.
    private func feed(
        _ player: AudioPlayer, to mpris: MPRISBridge?, observing: StartedServices, watch: StateWatch, observers: LibraryPlayerObservers
    ) -> Task<Void, Never> {
        Task(executorPreference: player.executor) {
            await player.consumeUpdates { updates in
                var last: PlayerState.Name?
                for await update in updates {
                    mpris?.observe(update)
                    observers.observe(update)
                    for service in observing.current { service.observe(update) }
                    // The player logs each state change itself.
                    if case .state(let state, _, _) = update, state.name != last {
                        last = state.name
                        watch.see(state.name)
                    }
                }
                watch.end()
            }
        }
    }

    /// Fades out what plays and waits until it has stopped sounding, shuts the player down (an
    /// episode's place is saved), lets every update reach its observers, then stops the services.
    private func takeDown(
        _ session: PlaybackSession, feeding: Task<Void, Never>, services: [any DaemonService], mpris: MPRISBridge?, watch: StateWatch
    ) async {
        let player = session.player
        if await player.state.allows(.stop) {
            do throws(PlaybackError) {
                try await player.stop()
                await watch.wait(for: [.finished, .failed, .idle])
            } catch {
                log.logger.warning("fade-out refused", metadata: ["code": "\(error.code.rawValue)"])
            }
        }
        await session.finish()
        await feeding.value
        for service in services.reversed() { await service.stop() }
        mpris?.stop()
    }
}

/// The services started so far, which see the player's updates.
private final class StartedServices: Sendable {
    private let services = Mutex<[any DaemonService]>([])

    func add(_ service: any DaemonService) { services.withLock { $0.append(service) } }
    var current: [any DaemonService] { services.withLock { $0 } }
}
