import Foundation

/// The orders a podcast's episodes are listed in.
package enum EpisodeOrder: String, Sendable, CaseIterable {
    /// Newest first, as feeds and the store give them.
    case newest
    case oldest
    /// By season, then episode number (as the feed numbers them), from the first; episodes the
    /// feed does not number come after, newest first.
    case season

    /// `episodes` (newest first, as `LibraryStore.episodes` gives them) in this order. Stable:
    /// equals keep their order.
    package func sorted(_ episodes: [EpisodeRecord]) -> [EpisodeRecord] {
        switch self {
        case .newest: return episodes
        case .oldest: return episodes.reversed()
        case .season:
            let numbered = episodes.enumerated().filter { $0.element.season != nil || $0.element.episodeNumber != nil }
            let rest = episodes.filter { $0.season == nil && $0.episodeNumber == nil }
            let ordered = numbered.sorted { a, b in
                // Unnumbered seasons (an episode number alone) come before season 1, as a first season.
                let seasons = (a.element.season ?? 0, b.element.season ?? 0)
                if seasons.0 != seasons.1 { return seasons.0 < seasons.1 }
                let numbers = (a.element.episodeNumber ?? .infinity, b.element.episodeNumber ?? .infinity)
                if numbers.0 != numbers.1 { return numbers.0 < numbers.1 }
                // The same number: the older first (the store's order is newest first).
                return a.offset > b.offset
            }.map(\.element)
            return ordered + rest
        }
    }
}
