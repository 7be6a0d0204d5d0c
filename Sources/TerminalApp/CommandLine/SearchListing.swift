import Foundation
import Library
import Presentation

/// Search hits as `tonearm search` prints them: numbered (the number `--play` takes), what was
/// found, then where, with the id to use in other commands:
///
///     1. podcast  Linux Voices (podcast 3)
///     2. episode  The kernel scheduler, Linux Voices (episode 45)
///     3. 12:34    Bob: The completely fair scheduler picks… (episode 45: The kernel scheduler, Linux Voices)
package enum SearchListing {
    package static func lines(_ hits: [LibrarySearchHit]) -> [String] {
        let width = String(hits.count).count
        return hits.enumerated().map { index, hit in
            let number = String(repeating: " ", count: width - String(index + 1).count) + "\(index + 1). "
            return number + line(hit)
        }
    }

    private static func line(_ hit: LibrarySearchHit) -> String {
        let episode = hit.episodeID.map { "episode \($0)" } ?? ""
        let place = "\(hit.episodeTitle ?? ""), \(hit.podcastTitle)"
        switch hit.match {
        case .podcastTitle: return "podcast  \(hit.podcastTitle) (podcast \(hit.podcastID))"
        case .podcastDetails: return "about    \(hit.text) (podcast \(hit.podcastID): \(hit.podcastTitle))"
        case .episodeTitle: return "episode  \(place) (\(episode))"
        case .episodeNotes: return "notes    \(hit.text) (\(episode): \(place))"
        case .transcript:
            let time = hit.time.map { TimeText.clock($0) } ?? "said"
            let speaker = hit.speaker.map { "\($0): " } ?? ""
            return time.padding(toLength: max(8, time.count), withPad: " ", startingAt: 0) + " \(speaker)\(hit.text) (\(episode): \(place))"
        }
    }
}
