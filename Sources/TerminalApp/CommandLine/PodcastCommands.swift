import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Presentation

/// What `tonearm podcast refresh` and `tonearm podcast import` do once their arguments are
/// parsed: each feed's outcome on a line of its own, failures on stderr, and whether all went well.
package enum PodcastCommands {
    /// Refreshes one podcast (by id or title) or, without one, all of them concurrently
    /// (`PodcastLibrary.refreshAll`); lines come in podcast order either way. False when any feed failed.
    package static func refresh(_ podcast: String?, library: LibraryContext) async -> Bool {
        let reports = await library.attempt("refreshPodcast") { () async throws(PlaybackError) -> [PodcastLibrary.RefreshReport] in
            guard let podcast else { return try await library.podcasts.refreshAll() }
            let target = try library.store.podcast(matching: podcast)
            do throws(PlaybackError) {
                return [PodcastLibrary.RefreshReport(podcast: target, outcome: .success(try await library.podcasts.refresh(target)))]
            } catch {
                return [PodcastLibrary.RefreshReport(podcast: target, outcome: .failure(error))]
            }
        }
        var failures = 0
        for report in reports {
            switch report.outcome {
            case .success(.notModified): print("\(report.podcast.title): unchanged")
            case .success(.updated(let result)): print("\(report.podcast.title): \(result.added) new, \(result.updated) updated")
            case .success(.skipped(let since, let nextTry)):
                print("\(report.podcast.title): \(LibraryListing.unreachable(since: since)); left out until \(EpisodeText.day(nextTry))")
            case .failure(let error):
                failures += 1
                CommandFailure.warn(error, about: report.podcast.title, operation: .feed)
            }
        }
        return failures == 0
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
