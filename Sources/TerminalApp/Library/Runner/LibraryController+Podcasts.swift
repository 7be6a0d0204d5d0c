import Foundation
import PlayerCore
import PlayerKit

extension LibraryController {
    /// Fetches and keeps a podcast's feed while the screen goes on.
    func addFeed(_ url: URL) {
        Task { [library] in
            do throws(PlaybackError) {
                _ = try await library.podcasts.add(feedURL: url)  // records its own failures
                self.dispatch(.feedAdded(failure: nil))
            } catch {
                self.dispatch(.feedAdded(failure: error))
            }
        }
    }

    /// Every feed fetched again, then the automatic downloads, then the sync (the library's one
    /// refresh), each shown as it comes.
    func refreshPodcasts() {
        Task { [library, logger, syncPassword] in
            do throws(PlaybackError) {
                try await library.refresh(syncPassword: syncPassword(), logger: logger) { step in
                    switch step {
                    case .refreshed(let reports):
                        let failed = reports.lazy.compactMap { report -> PlaybackError? in
                            if case .failure(let error) = report.outcome { error } else { nil }
                        }.first
                        self.dispatch(.podcastsRefreshed(.success(failed)))
                    case .downloading:
                        self.dispatch(.episodesChanged)
                    case .autoDownloaded(_, let outcomes):
                        switch outcomes {
                        case .success(let outcomes):
                            let failed = outcomes.lazy.compactMap { outcome -> PlaybackError? in
                                if case .failure(let error) = outcome.result { error } else { nil }
                            }.first
                            self.dispatch(.autoDownloaded(failure: failed))
                        case .failure(let error):
                            self.dispatch(.autoDownloaded(failure: error))
                        }
                    case .synced(let outcome):
                        if case .success(let report) = outcome, report.appliedActions + report.subscribed + report.unsubscribed > 0 {
                            self.dispatch(.episodesChanged)
                        }
                    }
                }
            } catch {
                self.dispatch(.podcastsRefreshed(.failure(error)))
            }
        }
    }

    /// The sync with other devices, when one is set up (`tonearm sync setup`): when an episode
    /// stops. Its failure is in the log and the analytics only: the screen is not the place for a
    /// background job's error, and what waits goes next time.
    func syncQuietly() async {
        if case .success(let report) = await library.syncIfSetUp(password: syncPassword(), logger: logger),
            report.appliedActions + report.subscribed + report.unsubscribed > 0
        {
            dispatch(.episodesChanged)
        }
    }
}
