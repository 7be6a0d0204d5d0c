import Foundation
import Library
import Logging
import PlayerCore

/// What a refresh tells as it goes, in this order: the feeds' reports, each automatic download's
/// events and each podcast's outcomes, then the sync (when an account is set up).
package enum RefreshStep: Sendable {
    case refreshed([PodcastLibrary.RefreshReport])
    case downloading(EpisodeDownloads.Event)
    /// A podcast's automatic downloads, or why they could not run.
    case autoDownloaded(podcastID: Int64, Result<[EpisodeDownloads.Outcome], PlaybackError>)
    case synced(Result<PodcastSync.Report, PlaybackError>)
}

extension LibraryContext {
    /// The one refresh every front end runs: the feeds (`podcast`'s, or all of them a few at a
    /// time), then the new episodes of the podcasts that download them by themselves, then the
    /// sync with the listener's other devices (skipped without an account or `syncPassword`).
    /// Each step is told to `step` as it ends, so a front end shows it without orchestrating.
    ///
    /// A feed that fails is in its report and the rest go on; a download that fails is in its
    /// outcome; a sync that fails is told and recorded (what waits goes next time).
    /// - Throws: only what keeps the refresh from starting (the library cannot be read).
    package func refresh(
        podcast: PodcastRecord? = nil, syncPassword: String?, logger: Logger, step: @escaping @Sendable (RefreshStep) -> Void
    ) async throws(PlaybackError) {
        let reports: [PodcastLibrary.RefreshReport]
        if let podcast {
            do throws(PlaybackError) {
                reports = [PodcastLibrary.RefreshReport(podcast: podcast, outcome: .success(try await podcasts.refresh(podcast)))]
            } catch {
                reports = [PodcastLibrary.RefreshReport(podcast: podcast, outcome: .failure(error))]
            }
        } else {
            reports = try await podcasts.refreshAll()
        }
        step(.refreshed(reports))
        let automatic = try store.autoDownloadPodcasts().filter { id in podcast.map { $0.id == id } ?? true }
        for id in automatic {
            do throws(PlaybackError) {
                step(.autoDownloaded(podcastID: id, .success(try await downloads.autoDownload(podcastID: id) { step(.downloading($0)) })))
            } catch {
                step(.autoDownloaded(podcastID: id, .failure(error)))
            }
        }
        if let synced = await syncIfSetUp(password: syncPassword, logger: logger) { step(.synced(synced)) }
    }
}
