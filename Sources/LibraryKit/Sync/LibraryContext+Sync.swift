import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit

extension LibraryContext {
    /// The sync a front end runs by itself (after a refresh, when an episode stops), quick
    /// (`PodcastSync.Options.background`) so nothing waits long on a server that is down: one run when
    /// an account is set up and `password` is there, nil otherwise. A failure is logged and
    /// recorded in the analytics, and returned for the front end to tell as it can; what waits
    /// stays queued for the next run.
    package func syncIfSetUp(password: String?, logger: Logger) async -> Result<PodcastSync.Report, PlaybackError>? {
        guard (try? store.syncAccount()) ?? nil != nil else { return nil }
        guard let password else {
            logger.notice("sync skipped: no password")
            return nil
        }
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
