import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit
import Synchronization

extension LibraryContext {
    /// The sync a front end runs by itself (after a refresh, when an episode stops), quick
    /// (`PodcastSync.Options.background`) so nothing waits long on a server that is down: one run when
    /// an account is set up and `password` is there, nil otherwise. A failure is logged and
    /// recorded in the analytics, and returned for the front end to tell as it can; what waits
    /// stays queued for the next run. One runs at a time: one asked for while another runs is
    /// skipped (nil), as what it would send goes with the one running or the next.
    package func syncIfSetUp(password: String?, logger: Logger) async -> Result<PodcastSync.Report, PlaybackError>? {
        guard (try? store.syncAccount()) ?? nil != nil else { return nil }
        guard let password else {
            logger.notice("sync skipped: no password")
            return nil
        }
        guard backgroundSync.enter() else {
            logger.debug("sync skipped: one is running")
            return nil
        }
        defer { backgroundSync.leave() }
        do throws(PlaybackError) {
            let sync = PodcastSync(library: podcasts, password: password, network: network, logger: logger, options: .background)
            return .success(try await sync.syncNow())
        } catch {
            logger.mappedError(error, level: .warning, "sync failed; what waits goes next time")
            await analytics.record(error, operation: "syncNow")
            return .failure(error)
        }
    }
}

/// Lets one background sync run at a time in a program run, whoever asks (a refresh, an episode
/// that stops, the daemon's timer).
package final class BackgroundSyncGate: Sendable {
    private let running = Mutex(false)

    package init() {}

    /// True when no sync was running; the caller then runs one and calls `leave`.
    func enter() -> Bool {
        running.withLock { running in
            defer { running = true }
            return !running
        }
    }

    func leave() { running.withLock { $0 = false } }
}
