import Foundation
import Library
import PlayerCore
import PlayerKit

/// The chapters the library knows for an episode without fetching anything: those written into
/// its feed (Podlove Simple Chapters), read by the track's episode id (`episode:<id>`).
package struct LibraryChapters: KnownChapters {
    private let store: LibraryStore

    package init(store: LibraryStore) {
        self.store = store
    }

    package func chapters(for track: Track) -> [Chapter]? {
        guard track.kind == .episode, track.id.hasPrefix("episode:"), let id = Int64(track.id.dropFirst("episode:".count)),
            let episode = try? store.episode(id: id), !episode.inlineChapters.isEmpty
        else { return nil }
        return episode.inlineChapters
    }
}
