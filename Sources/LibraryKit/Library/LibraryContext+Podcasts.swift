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
        try store.removePodcast(id: record.id)
        downloads.removeOrphans()
        return record
    }
}
