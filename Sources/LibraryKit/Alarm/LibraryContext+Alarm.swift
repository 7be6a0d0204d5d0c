import Foundation
import Library
import PlayerCore
import PlayerKit

extension LibraryContext {
    /// What an alarm's source plays, looked up in the library when it sounds: a station, an
    /// episode from where the listener stopped, a session. A source the library no longer has
    /// is its typed error (`notInLibrary`); an episode without audio is `cannotPlay`.
    package func alarmReplacement(for source: Alarm.Source) throws(PlaybackError) -> PlayerEvent.Replacement {
        switch source {
        case .station(let name):
            return .play(PlayRequest(track: try store.station(named: name).station.track))
        case .episode(let id):
            return try episodeToPlay(id: id)
        case .session(let name):
            return .play(try SessionLoader.request(for: try store.session(named: name).path))
        }
    }
}
