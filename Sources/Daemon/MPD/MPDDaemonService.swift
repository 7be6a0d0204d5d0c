import Foundation
import Logging
import MPD
import MPDProtocol
import MPDServer
import PlayerKit
import Synchronization

/// The MPD protocol on the daemon's player. Always on the user's own socket in the runtime
/// directory (0600 in a 0700 folder: only the user reaches it, so it asks no password), and on
/// the addresses the listener named (`--mpd`, `--mpd-bind`), where the password applies and an
/// address off this machine is refused without one.
package final class MPDDaemonService: DaemonService {
    package let name = "mpd"
    private struct Running {
        var backend: MPDPlayerBackend
        var servers: [MPDServer]
    }

    private let running = Mutex<Running?>(nil)

    package init() {}

    /// The socket every daemon listens on.
    package static func socket(in directory: DaemonRuntimeDirectory) -> String {
        directory.url.appendingPathComponent("mpd.sock").path
    }

    package func start(_ context: DaemonContext) async throws(PlaybackError) -> [DaemonEndpoint] {
        let catalog = MPDCatalog(library: context.library, musicDirectory: context.options.musicDirectory)
        let backend = MPDPlayerBackend(
            player: context.player, catalog: catalog, assembly: context.assembly, outputs: context.outputs, crossfade: context.configuration.defaultCrossfade,
            logger: context.logger, playlists: MPDPlaylistStore(directory: context.options.playlistDirectory ?? MPDPlaylistStore.standardDirectory()),
            levelling: context.configuration.loudness.mode)
        let local = MPDServer(
            backend: backend,
            configuration: MPDServerConfiguration(
                endpoints: [.unixSocket(path: Self.socket(in: context.runtimeDirectory))], limits: context.options.mpdLimits),
            logger: context.logger)
        var servers = [local]
        if let settings = context.options.mpd, !settings.addresses.isEmpty {
            let endpoints = settings.addresses.map(\.mpdEndpoint)
            servers.append(
                MPDServer(
                    backend: backend,
                    configuration: MPDServerConfiguration(endpoints: endpoints, password: settings.password, limits: context.options.mpdLimits),
                    logger: context.logger))
        }
        // The first index update is under way (`updating_db`) before any client can ask.
        await backend.keepMusicIndexCurrent()
        var bound: [MPDEndpoint] = []
        for server in servers {
            do {
                bound += try await server.start()
            } catch {
                for started in servers { await started.stop() }
                backend.finish()
                throw PlaybackError(.connectionFailed, underlying: "MPD: \(error)")
            }
        }
        running.withLock { $0 = Running(backend: backend, servers: servers) }
        return bound.map { DaemonEndpoint(service: DaemonEndpoint.mpd, address: $0.description) }
    }

    package func observe(_ update: PlayerUpdate) {
        running.withLock { $0?.backend }?.observe(update)
    }

    package func stop() async {
        guard let running = running.withLock({ state -> Running? in
            defer { state = nil }
            return state
        }) else { return }
        running.backend.finish()
        for server in running.servers { await server.stop() }
    }
}
