import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Presentation
import Synchronization

/// What `tonearm podcast ...` does once its arguments are parsed. `refresh` and `import` put each
/// feed's outcome on a line of its own, failures on stderr, and say whether all went well.
package enum PodcastCommands {
    /// Refreshes one podcast (by id or title) or, without one, all of them concurrently; then the
    /// automatic downloads, then the sync (the library's one refresh, `LibraryContext.refresh`).
    /// Each feed's outcome is on a line of its own, in podcast order; failures on stderr. False
    /// when any feed or download failed.
    package static func refresh(_ podcast: String?, library: LibraryContext) async -> Bool {
        let failures = Mutex(0)
        let progress = DownloadProgress()
        await library.attempt("refreshPodcast") { () async throws(PlaybackError) in
            let target = try podcast.map { name throws(PlaybackError) in try library.store.podcast(matching: name) }
            try await library.refresh(podcast: target, syncPassword: try? SyncPassword.find(), logger: CommandLog.logger) { step in
                switch step {
                case .refreshed(let reports):
                    failures.withLock { $0 += reports.filter { if case .failure = $0.outcome { true } else { false } }.count }
                    for report in reports { tell(report) }
                case .downloading(let event):
                    progress.handle(event)
                case .autoDownloaded(_, .success(let outcomes)):
                    for outcome in outcomes {
                        guard case .failure(let error) = outcome.result else { continue }
                        failures.withLock { $0 += 1 }
                        progress.finish()
                        CommandFailure.warn(error, about: outcome.episode.title, operation: .download)
                    }
                case .autoDownloaded(let podcastID, .failure(let error)):
                    failures.withLock { $0 += 1 }
                    CommandFailure.warn(error, about: "podcast \(podcastID)", operation: .download)
                case .synced(.failure(let error)):
                    let text = error.text(in: .current)
                    FileHandle.standardError.write(
                        Data("tonearm: sync after refresh: \(text.title): \(text.message) (what waits goes next time)\n".utf8))
                case .synced(.success):
                    break
                }
            }
        }
        progress.finish()
        DownloadCommands.warnIfOverCap(library)
        return failures.withLock { $0 } == 0
    }

    /// One feed's outcome on a line of its own; a failure on stderr.
    private static func tell(_ report: PodcastLibrary.RefreshReport) {
        switch report.outcome {
        case .success(.notModified): print("\(report.podcast.title): unchanged")
        case .success(.updated(let result)): print("\(report.podcast.title): \(result.added) new, \(result.updated) updated")
        case .success(.skipped(let since, let nextTry)):
            print("\(report.podcast.title): \(LibraryListing.unreachable(since: since)); left out until \(EpisodeText.day(nextTry))")
        case .failure(let error): CommandFailure.warn(error, about: report.podcast.title, operation: .feed)
        }
    }

    /// Subscribes to every feed of the OPML `file`; false when any feed failed.
    package static func importOPML(_ file: String, library: LibraryContext) async -> Bool {
        let data = CommandFailure.orExit { () throws(PlaybackError) in try UserFile.read(file, maxBytes: LibraryLimits.maxOPMLBytes) }
        let outcomes = await library.attempt("importOPML") { () async throws(PlaybackError) in try await library.podcasts.importOPML(data) }
        let report = LibraryListing.opmlImport(outcomes)
        report.lines.forEach { print($0) }
        for failure in report.failures { CommandFailure.warn(failure.error, about: failure.about, operation: .feed) }
        print(report.summary)
        return report.failures.isEmpty
    }
}

extension PodcastCommands {
    /// `podcast transcript ID`: the episode's transcript with times (`[00:01:02] Speaker: text`),
    /// or JSON for scripts (`{"timed": true, "cues": [{"start", "end", "text", "speaker"}]}`).
    package static func transcript(episodeID: Int64, json: Bool, library: LibraryContext) async {
        let transcript: Transcript
        do throws(PlaybackError) {
            transcript = try await library.transcript(episodeID: episodeID)
        } catch {
            // The library's own failures read as themselves; the fetch's in the transcript's words.
            CommandFailure.exit(error, operation: error.code == .noTranscript || error.category == .system ? .playback : .transcript)
        }
        if json {
            JSONOutput.print(transcript)
        } else {
            print(TranscriptListing.text(transcript), terminator: "")
        }
    }
}

extension PodcastCommands {
    /// `podcast list`: every subscription, as text or as a JSON array (stable ids) for scripts.
    package static func list(json: Bool, library: LibraryContext) async {
        let podcasts = await library.attempt("listPodcasts") { () throws(PlaybackError) in try library.store.podcasts() }
        json ? JSONOutput.print(podcasts) : print(LibraryListing.podcasts(podcasts))
    }

    /// `podcast episodes`: the episodes of the podcast `podcast` names (its id or title), in
    /// `order`, as text or as a JSON array (stable ids) for scripts.
    package static func episodes(_ podcast: String, order: EpisodeOrder, json: Bool, library: LibraryContext) async {
        let episodes = await library.attempt("listEpisodes") { () throws(PlaybackError) in
            order.sorted(try library.store.episodes(podcastID: try library.store.podcast(matching: podcast).id))
        }
        json ? JSONOutput.print(episodes) : print(LibraryListing.episodes(episodes))
    }

    /// `podcast remove`: unsubscribes (`LibraryContext.removePodcast`, its downloads go too).
    package static func remove(_ podcast: String, library: LibraryContext) async {
        let removed = await library.attempt("removePodcast") { () throws(PlaybackError) in try library.removePodcast(matching: podcast) }
        print("Removed \(removed.title)")
    }

    /// `podcast soundbites`: an episode's soundbites, as text or as a JSON array for scripts.
    package static func soundbites(episodeID: Int64, json: Bool, library: LibraryContext) async {
        let record = await library.attempt("listSoundbites") { () throws(PlaybackError) in try library.store.episode(id: episodeID) }
        json ? JSONOutput.print(record.soundbites) : print(LibraryListing.soundbites(of: record))
    }

    /// `podcast mark`: marks an episode played or unplayed and says which.
    package static func mark(episodeID: Int64, played: Bool, library: LibraryContext) async {
        let record = await library.attempt("markPlayed") { () throws(PlaybackError) -> EpisodeRecord in
            try library.store.markPlayed(episodeID: episodeID, played)
            return try library.store.episode(id: episodeID)
        }
        print("\(record.title): \(played ? "played" : "unplayed")")
    }

    /// `podcast mark-all-played`: marks every episode of the podcast `podcast` names played.
    package static func markAllPlayed(_ podcast: String, library: LibraryContext) async {
        let record = await library.attempt("markPlayed") { () throws(PlaybackError) -> PodcastRecord in
            let record = try library.store.podcast(matching: podcast)
            try library.store.markAllPlayed(podcastID: record.id)
            return record
        }
        print("\(record.title): all \(record.episodeCount) episodes played")
    }

    /// `podcast trim-silence`: turns silence trimming of the podcast `podcast` names on or off.
    package static func trimSilence(_ podcast: String, on: Bool, library: LibraryContext) async {
        let record = await library.attempt("trimSilence") { () throws(PlaybackError) -> PodcastRecord in
            let record = try library.store.podcast(matching: podcast)
            try SilenceTrimmingSetting.set(on, in: library.store, podcast: record.id)
            return record
        }
        print("\(record.title): silence trimming \(on ? "on" : "off")")
    }

    /// `podcast stats`: the time silence trimming has saved, per podcast and in total.
    package static func stats(library: LibraryContext) async {
        let saved = await library.attempt("podcastStats") { () throws(PlaybackError) in try library.store.trimmedSilenceByPodcast() }
        print(LibraryListing.trimmedSilence(saved))
    }
}
