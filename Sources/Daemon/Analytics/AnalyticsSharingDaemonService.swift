import AnalyticsSharing
import Foundation
import PlayerCore
import PlayerKit
import Synchronization

/// Opt-in sharing of hourly error counts while the daemon runs: `AnalyticsSharingService` on the
/// library, under the session's retry budget. Only added when config.toml names an endpoint; it
/// sends nothing until the listener said yes (`tonearm analytics share on`), and it listens nowhere.
package final class AnalyticsSharingDaemonService: DaemonService {
    package let name = "analytics-sharing"
    private let endpoint: String
    private let rule: AnalyticsSharingRule
    private let task = Mutex<Task<Void, Never>?>(nil)

    package init(endpoint: String, rule: AnalyticsSharingRule) {
        self.endpoint = endpoint
        self.rule = rule
    }

    package func start(_ context: DaemonContext) async throws(PlaybackError) -> [DaemonEndpoint] {
        let exporter = OTLPErrorCountExporter(endpoint: endpoint, version: TonearmVersion.current, logger: context.logger)
        let sharing = AnalyticsSharingService(
            store: context.library.store, exporter: exporter, rule: rule, budget: context.session.retryBudget, logger: context.logger)
        task.withLock { $0 = Task { await sharing.run(clock: SystemClock()) } }
        return []
    }

    package func stop() async {
        let running = task.withLock { task in
            defer { task = nil }
            return task
        }
        running?.cancel()
        await running?.value
    }
}
