import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit

/// What `tonearm podcast download`, `downloads` and `auto-download` do once their arguments are
/// parsed: progress on stderr (a bar on a terminal, lines otherwise), each finished episode on
/// stdout, each failure with its typed wording, and whether all went well.
package enum DownloadCommands {
    /// Downloads the episode `target` names, or a podcast's newest episodes.
    ///
    /// `target` is an episode id as `podcast episodes --json` gives it, or a podcast's id or
    /// title; with `latest` it always names a podcast, whose newest `latest` episodes with audio
    /// are downloaded (the newest one when a podcast is named without it). False when any failed.
    package static func download(_ target: String, latest: Int?, library: LibraryContext) async -> Bool {
        let ids = await library.attempt("downloadEpisode") { () throws(PlaybackError) -> [Int64] in
            if latest == nil, let id = Int64(target), (try? library.store.episode(id: id)) != nil { return [id] }
            let podcast = try library.store.podcast(matching: target)
            let episodes = try library.store.episodes(podcastID: podcast.id).filter { $0.audioURL != nil }
            return episodes.prefix(max(1, latest ?? 1)).map(\.id)
        }
        return await run(ids, library: library)
    }

    /// Downloads `ids` with progress and reports each outcome; false when any failed.
    static func run(_ ids: [Int64], library: LibraryContext) async -> Bool {
        guard !ids.isEmpty else {
            print("Nothing to download: no episode with audio.")
            return true
        }
        let progress = DownloadProgress()
        let outcomes = await library.downloads.download(ids, events: { progress.handle($0) })
        progress.finish()
        var failures = 0
        for outcome in outcomes {
            if case .failure(let error) = outcome.result {
                failures += 1
                CommandFailure.warn(error, about: outcome.episode.title, operation: .download)
            }
        }
        warnIfOverCap(library)
        return failures == 0
    }

    /// Every download, with its size, and the storage cap.
    package static func list(json: Bool, library: LibraryContext) async {
        let (downloads, cap) = await library.attempt("listDownloads") { () throws(PlaybackError) in
            (try library.store.downloads(), try library.downloads.storageCap())
        }
        let rows = await library.attempt("listDownloads") { () throws(PlaybackError) -> [(DownloadRecord, EpisodeRecord)] in
            var rows: [(DownloadRecord, EpisodeRecord)] = []
            for record in downloads { rows.append((record, try library.store.episode(id: record.episodeID))) }
            return rows
        }
        if json {
            JSONOutput.print(rows.map { DownloadListing(record: $0.0, episode: $0.1) })
            return
        }
        print(LibraryListing.downloads(rows, cap: cap))
    }

    /// Deletes one episode's download.
    package static func remove(_ episodeID: Int64, library: LibraryContext) async {
        let episode = await library.attempt("removeDownload") { () throws(PlaybackError) -> EpisodeRecord in
            let episode = try library.store.episode(id: episodeID)
            try library.downloads.remove(episodeID: episodeID)
            return episode
        }
        print("Removed the download of \(episode.title)")
    }

    /// Sets the storage cap (nil: none) and keeps the downloads under it at once.
    package static func setCap(_ bytes: Int64?, library: LibraryContext) async {
        let outcome = await library.attempt("storageCap") { () throws(PlaybackError) -> EpisodeDownloads.CapOutcome in
            try library.downloads.setStorageCap(bytes)
            return try library.downloads.keepUnderStorageCap(events: { DownloadProgress().handle($0) })
        }
        print(bytes.map { "Storage cap for downloads: \(DownloadProgress.megabytes($0))" } ?? "No storage cap for downloads")
        if outcome.overCap { warnIfOverCap(library) }
    }

    /// Turns downloading a podcast's new episodes on (keeping the newest `keep`) or off, and
    /// brings its downloads in line at once.
    package static func setAuto(_ podcast: String, keep: Int?, library: LibraryContext) async -> Bool {
        let record = await library.attempt("autoDownload") { () throws(PlaybackError) -> PodcastRecord in
            let record = try library.store.podcast(matching: podcast)
            try library.store.setAutoDownload(podcastID: record.id, keepLatest: keep)
            return record
        }
        guard let keep else {
            print("\(record.title): new episodes are not downloaded")
            return true
        }
        print("\(record.title): the newest \(max(1, keep)) episodes are kept downloaded")
        return await autoDownload(podcastIDs: [record.id], library: library)
    }

    /// Runs the automatic downloads of these podcasts (those with it on); false when any failed.
    package static func autoDownload(podcastIDs: [Int64], library: LibraryContext) async -> Bool {
        let progress = DownloadProgress()
        var failures = 0
        for id in podcastIDs {
            do throws(PlaybackError) {
                for outcome in try await library.downloads.autoDownload(podcastID: id, events: { progress.handle($0) }) {
                    if case .failure(let error) = outcome.result {
                        failures += 1
                        progress.finish()
                        CommandFailure.warn(error, about: outcome.episode.title, operation: .download)
                    }
                }
            } catch {
                failures += 1
                CommandFailure.warn(error, about: "podcast \(id)", operation: .download)
            }
        }
        progress.finish()
        warnIfOverCap(library)
        return failures == 0
    }

    static func warnIfOverCap(_ library: LibraryContext) {
        guard let cap = try? library.downloads.storageCap(), let downloads = try? library.store.downloads() else { return }
        let total = downloads.reduce(0) { $0 + $1.receivedBytes }
        guard total > cap else { return }
        FileHandle.standardError.write(
            Data(
                ("tonearm: downloads use \(DownloadProgress.megabytes(total)), over the \(DownloadProgress.megabytes(cap)) cap: "
                    + "the rest are partly played or just downloaded, and are kept. Remove one with: tonearm podcast downloads --remove ID\n")
                    .utf8))
    }
}

/// One row of `tonearm podcast downloads --json`.
struct DownloadListing: Encodable {
    var episodeID: Int64
    var podcastID: Int64
    var title: String
    var podcastTitle: String
    var state: DownloadState
    var bytes: Int64
    var totalBytes: Int64?
    var played: Bool
    var position: Double

    init(record: DownloadRecord, episode: EpisodeRecord) {
        episodeID = record.episodeID
        podcastID = record.podcastID
        title = episode.title
        podcastTitle = episode.podcastTitle
        state = record.state
        bytes = record.receivedBytes
        totalBytes = record.totalBytes
        played = record.played
        position = record.position
    }
}
