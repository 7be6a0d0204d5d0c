import AudioEngine
import Foundation
import LibraryKit
import Logging
import PlayerCore
import PlayerKit

/// A way in to the running daemon: the MPD server, the Snapcast control, a start-up item. The
/// daemon starts each once its player and library are open and feeds it every player update. On
/// SIGTERM the player fades out and is shut down first, so each service still sees the last
/// updates (an episode's saved place among them); then the services are stopped.
package protocol DaemonService: Sendable {
    /// A short name for the log, such as `mpd`.
    var name: String { get }

    /// Starts serving on `context`'s player and library.
    /// - Returns: where the service listens, published in the runtime directory's info file (and
    ///   named to a second `tonearm` that is refused); empty when it listens nowhere.
    /// - Throws: the typed error that keeps the daemon from starting (a port in use): it exits 1.
    func start(_ context: DaemonContext) async throws(PlaybackError) -> [DaemonEndpoint]

    /// Sees every player update, in order, from the daemon's one consumer of them, between
    /// `start` and `stop`. It must return quickly (hand the work to the service's own tasks).
    func observe(_ update: PlayerUpdate)

    /// Stops serving: closes listeners and connections. Called once, at shutdown, after the last
    /// update.
    func stop() async
}

extension DaemonService {
    package func observe(_ update: PlayerUpdate) {}
}

/// What a service is given: the one player, the open library and the daemon's options.
package struct DaemonContext: Sendable {
    /// The daemon's one player session, open for the daemon's whole life. Send it intents; do
    /// not `finish` it (the daemon does at shutdown).
    package let session: PlaybackSession
    /// The player's wiring to the library: a service that plays an episode names it to
    /// `assembly.observers.places`, and plays through `assembly.replace(with:on:)`.
    package let assembly: LibraryPlayerAssembly
    /// The library, open for the daemon's whole life.
    package var library: LibraryContext { assembly.library }
    package let options: DaemonOptions
    /// The player's configuration (the crossfade between items, fades, volume).
    package let configuration: PlayerStateMachine.Configuration
    /// Where a service makes its unix sockets (the user's private runtime directory).
    package let runtimeDirectory: DaemonRuntimeDirectory
    package let logger: Logger
    /// Ends the daemon as SIGTERM does (an MPD `kill`, MPRIS Quit).
    package let shutdown: @Sendable () -> Void

    package var player: AudioPlayer { session.player }

    /// The outputs sound goes to, the main one first, as clients list them and turn them off and on.
    package var outputs: [OutputSwitch] { session.outputSwitches }

    package init(
        session: PlaybackSession, assembly: LibraryPlayerAssembly, options: DaemonOptions, configuration: PlayerStateMachine.Configuration = .init(),
        runtimeDirectory: DaemonRuntimeDirectory, logger: Logger, shutdown: @escaping @Sendable () -> Void
    ) {
        self.session = session
        self.assembly = assembly
        self.options = options
        self.configuration = configuration
        self.runtimeDirectory = runtimeDirectory
        self.logger = logger
        self.shutdown = shutdown
    }
}
