import Foundation
import Library
import PlayerCore

extension MusicSongRecord {
    /// The song as the player's item: a local file under `folder` (the music directory the index
    /// was made of), shown by its tags. A cue sheet's track is its image's file, played from its
    /// part (its tags carry it).
    package func queueItem(in folder: URL) -> QueueItem {
        let file = tags.part?.image ?? path
        let url = file.split(separator: "/").reduce(folder) { $0.appendingPathComponent(String($1)) }
        return QueueItem(track: .localFile(id: "music:\(id)", url: url, tags: tags, duration: tags.audio.duration))
    }
}
