import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Presentation
import Synchronization

/// What `tonearm podcast refresh` and `tonearm podcast import` do once their arguments are
/// parsed: each feed's outcome on a line of its own, failures on stderr, and whether all went well.
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
