import Library
import PlayerCore
import PlayerKit
import Services

extension LibraryContext {
    /// Keeps a station found in the directory under its name, its first tag as genre, and its
    /// directory id, so that playing it later counts a click there too.
    package func addStation(from station: DirectoryStation) throws(PlaybackError) -> StationRecord {
        try store.addStation(name: station.name, url: station.streamURL, genre: station.tags.first, directoryID: station.id)
    }
}
