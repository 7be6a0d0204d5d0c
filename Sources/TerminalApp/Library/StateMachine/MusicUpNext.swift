import Foundation
import Library
import PlayerCore

/// The songs the Music tab has the player play, in order, and which of them is heard: Enter
/// starts an album from a song, `a` adds songs after it. The library's own queue (Up Next) holds
/// episodes, stations and sessions by their library id; a song is a file of the music folder,
/// so what `a` adds goes to the player's upcoming items (`setUpcoming`), as MPD's queue does.
struct MusicUpNext: Sendable, Hashable {
    /// Every item of the request and what was added after it, in the player's numbering.
    private(set) var items: [QueueItem]
    /// The index in `items` of the item heard (the player's `currentItem` notice).
    var current = 0

    init(_ items: [QueueItem]) { self.items = items }

    /// `more` after everything already upcoming: what the player is to play after the current item.
    mutating func append(_ more: [QueueItem]) -> UpcomingChange {
        items += more
        let next = min(items.count, current + 1)
        return UpcomingChange(items: Array(items[next...]))
    }
}
