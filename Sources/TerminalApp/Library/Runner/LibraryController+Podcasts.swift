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

    /// Every feed fetched again, a few at a time (`refreshAll`); then the new episodes of the
    /// podcasts that download them by themselves, shown as they come.
    func refreshPodcasts() {
        Task { [library] in
            let outcome: Result<PlaybackError?, PlaybackError>
            do throws(PlaybackError) {
                outcome = .success(
                    try await library.podcasts.refreshAll().lazy.compactMap { report -> PlaybackError? in
                        if case .failure(let error) = report.outcome { error } else { nil }
                    }.first)
            } catch {
                outcome = .failure(error)
            }
            self.dispatch(.podcastsRefreshed(outcome))
            for podcast in (try? library.store.autoDownloadPodcasts()) ?? [] {
                let outcomes = (try? await library.downloads.autoDownload(podcastID: podcast) { _ in self.dispatch(.episodesChanged) }) ?? []
                let failed = outcomes.lazy.compactMap { outcome -> PlaybackError? in
                    if case .failure(let error) = outcome.result { error } else { nil }
                }.first
                self.dispatch(.autoDownloaded(failure: failed))
            }
            await self.syncQuietly()
        }
    }

    /// The sync with other devices, when one is set up (`tonearm sync setup`): after a refresh and
    /// when an episode stops. Its failure is in the log and the analytics only: the screen is not
    /// the place for a background job's error, and what waits goes next time.
    func syncQuietly() async {
        let first = syncing.withLock { running in
            defer { running = true }
            return !running
        }
        guard first else { return }
        defer { syncing.withLock { $0 = false } }
        if case .success(let report) = await library.syncIfSetUp(password: syncPassword(), logger: logger),
            report.appliedActions + report.subscribed + report.unsubscribed > 0
        {
            dispatch(.episodesChanged)
        }
    }
}
