import Library
import PlayerCore

extension LibraryContext {
    /// Unsubscribes from the podcast `podcast` names (its id or title): its episodes and positions
    /// go in one transaction, then its downloaded files, which no download of the library names
    /// any more. Returns the podcast as it was. A podcast not in the library, or a library that
    /// cannot be written, throws and leaves the files alone.
    @discardableResult
    package func removePodcast(matching podcast: String) throws(PlaybackError) -> PodcastRecord {
        let record = try store.podcast(matching: podcast)
        try removePodcast(id: record.id)
        return record
    }

    /// Unsubscribes from the podcast with `id`, as above; every front end removes a podcast so.
    package func removePodcast(id: Int64) throws(PlaybackError) {
        try store.removePodcast(id: id)
        _ = downloads.removeOrphans()
    }
}
