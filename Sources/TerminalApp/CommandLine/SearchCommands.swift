import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit

/// `tonearm search WORDS`: the library's hits, printed numbered (or as JSON), and the episode
/// a hit names, to play from where its words are said.
package enum SearchCommands {
    /// The hits for `text`, best first; a library that cannot be read ends the command.
    package static func hits(for text: String, limit: Int, library: LibraryContext) async -> [LibrarySearchHit] {
        let clock = ContinuousClock()
        let started = clock.now
        let hits = await library.attempt("search") { () throws(PlaybackError) in try library.store.search(text, limit: limit) }
        let elapsed = started.duration(to: clock.now)
        // The count and the time only: what the listener searches for is theirs.
        CommandLog.logger.info(
            "search answered", metadata: ["hits": "\(hits.count)", "ms": "\((elapsed.inSeconds * 10_000).rounded() / 10)"])
        return hits
    }

    /// Prints `hits`; nothing found is said on stderr (and `[]` for `--json`), and is not a failure.
    package static func print(_ hits: [LibrarySearchHit], json: Bool) {
        if json { return JSONOutput.print(hits) }
        guard !hits.isEmpty else {
            return FileHandle.standardError.write(Data("tonearm: nothing in the library matches (titles, notes and fetched transcripts are searched)\n".utf8))
        }
        SearchListing.lines(hits).forEach { Swift.print($0) }
    }

    /// The episode and time hit `number` (1-based) plays from: a transcript line's time, else
    /// where the listener stopped. Nil with the reason when the hit is not an episode or not there.
    package static func episode(ofHit number: Int, in hits: [LibrarySearchHit]) -> Result<(id: Int64, from: TimeInterval?), SearchPlayRefusal> {
        guard hits.indices.contains(number - 1) else { return .failure(.noSuchHit(count: hits.count)) }
        let hit = hits[number - 1]
        guard let episodeID = hit.episodeID else { return .failure(.podcast(id: hit.podcastID)) }
        return .success((episodeID, hit.time))
    }
}

/// Why `--play N` cannot play hit N, in the words the command prints.
package enum SearchPlayRefusal: Error, Equatable, CustomStringConvertible {
    case noSuchHit(count: Int)
    case podcast(id: Int64)

    package var description: String {
        switch self {
        case .noSuchHit(0): "nothing was found, so there is no hit to play"
        case .noSuchHit(let count): "there are \(count) hits: give a number from 1 to \(count)"
        case .podcast(let id): "that hit is a podcast: list its episodes with `tonearm podcast episodes \(id)`"
        }
    }
}
