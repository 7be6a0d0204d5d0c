import Foundation
import Library
import PlayerCore
import PlayerKit

/// What `tonearm podcast refresh` and `tonearm podcast import` do once their arguments are
/// parsed: each feed's outcome on a line of its own, failures on stderr, and whether all went well.
public enum PodcastCommands {
    /// Refreshes one podcast (by id or title) or all; false when any feed failed.
    public static func refresh(_ podcast: String?, library: LibraryContext) async -> Bool {
        let targets = await library.attempt("refreshPodcast") { () throws(PlaybackError) -> [PodcastRecord] in
            if let podcast { return [try library.store.podcast(matching: podcast)] }
            return try library.store.podcasts()
        }
        var failures = 0
        for target in targets {
            do throws(PlaybackError) {
                switch try await library.podcasts.refresh(target) {
                case .notModified: print("\(target.title): unchanged")
                case .updated(let result): print("\(target.title): \(result.added) new, \(result.updated) updated")
                }
            } catch {
                failures += 1
                CommandFailure.warn(error, about: target.title, operation: .feed)
            }
        }
        return failures == 0
    }

    /// Subscribes to every feed of the OPML `file`; false when any feed failed.
    public static func importOPML(_ file: String, library: LibraryContext) async -> Bool {
        let data = CommandFailure.orExit { () throws(PlaybackError) in try UserFile.read(file, maxBytes: LibraryLimits.maxOPMLBytes) }
        let outcomes = await library.attempt("importOPML") { () async throws(PlaybackError) in try await library.podcasts.importOPML(data) }
        let report = LibraryListing.opmlImport(outcomes)
        report.lines.forEach { print($0) }
        for failure in report.failures { CommandFailure.warn(failure.error, about: failure.about, operation: .feed) }
        print(report.summary)
        return report.failures.isEmpty
    }
}
