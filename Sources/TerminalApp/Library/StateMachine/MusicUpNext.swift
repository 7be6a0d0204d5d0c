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

    /// A song of the index as the player's item: a local file under `folder`, shown by its tags.
    /// A cue sheet's track is its image's file, played from its part (its tags carry it).
    static func item(_ song: MusicSongRecord, in folder: URL) -> QueueItem {
        let path = song.tags.part?.image ?? song.path
        let url = path.split(separator: "/").reduce(folder) { $0.appendingPathComponent(String($1)) }
        return QueueItem(track: .localFile(id: "music:\(song.id)", url: url, tags: song.tags, duration: song.tags.audio.duration))
    }
}
