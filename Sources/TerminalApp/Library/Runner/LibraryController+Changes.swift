import Foundation
import Library
import PlayerCore
import PlayerKit

extension LibraryController {
    /// Makes a change of the library; nil when it was made.
    func perform(_ change: LibraryChange) -> PlaybackError? {
        let store = library.store
        do throws(PlaybackError) {
            switch change {
            case .addStation(let name, let url): _ = try store.addStation(name: name, url: url)
            case .addFoundStation(let station): _ = try library.addStation(from: station)
            case .renameStation(let id, let name): _ = try store.renameStation(id: id, to: name)
            case .enqueue(let target): _ = try store.enqueue(target)
            case .moveInQueue(let entry, let index): try store.moveInQueue(entryID: entry, to: index)
            case .dequeue(let entry): try store.removeFromQueue(entryID: entry)
            case .markPlayed(let episode, let played): try store.markPlayed(episodeID: episode, played)
            case .markAllPlayed(let podcast): try store.markAllPlayed(podcastID: podcast)
            case .like(let heard): _ = try store.like(title: heard.title, artist: heard.artist, station: heard.station, heardAt: heard.heardAt, at: Date())
            case .unlike(let title, let artist): try store.unlike(title: title, artist: artist)
            }
            return nil
        } catch {
            return error
        }
    }

    /// Removes from the library what the listener removed on the screen (nothing is left half-done:
    /// each is one transaction; a podcast's downloaded files go with it); nil when it was removed.
    func remove(_ entry: LibraryEntry) -> PlaybackError? {
        do throws(PlaybackError) {
            switch entry {
            case .station(let record): try library.store.removeStation(named: record.name)
            case .podcast(let record): try library.removePodcast(id: record.id)
            case .session(let record): try library.store.removeSession(named: record.name)
            default: return nil
            }
            return nil
        } catch {
            return error
        }
    }
}
