import Foundation

/// One thing `LibraryStore.search` found: a podcast, an episode, or a line said in an episode's
/// transcript. Printed by `tonearm search --json`, so its property names are the JSON keys.
package struct LibrarySearchHit: Sendable, Equatable, Codable {
    /// Where the words were found, in the order hits are ranked.
    package enum Match: String, Sendable, Codable, CaseIterable {
        case podcastTitle, episodeTitle, podcastDetails, episodeNotes, transcript
    }

    package var match: Match
    package var podcastID: Int64
    package var podcastTitle: String
    /// Nil for a podcast hit.
    package var episodeID: Int64?
    package var episodeTitle: String?
    /// Seconds into the episode where a transcript line starts; nil for other hits and for a
    /// transcript without times.
    package var time: TimeInterval?
    /// What was found: the title, an excerpt of the notes, or the transcript's line.
    package var text: String
    /// Who says a transcript line, when the transcript names them.
    package var speaker: String?

    package init(
        match: Match, podcastID: Int64, podcastTitle: String, episodeID: Int64? = nil, episodeTitle: String? = nil,
        time: TimeInterval? = nil, text: String, speaker: String? = nil
    ) {
        self.match = match
        self.podcastID = podcastID
        self.podcastTitle = podcastTitle
        self.episodeID = episodeID
        self.episodeTitle = episodeTitle
        self.time = time
        self.text = text
        self.speaker = speaker
    }
}
