import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit

/// The one list of what the library learns from a player's updates, the same for every front end
/// (`tonearm play`, the library screen, `tonearm serve` and the MPD clients it serves): the
/// volume, speed and levelling the listener sets, the titles heard on stations, how each station
/// start went, every episode's place, and the states that led to a failure (for `tonearm report`).
///
/// Feed it every update of the player, in order, from the one task that consumes them.
package final class LibraryPlayerObservers: Sendable {
    /// Keeps the volume and speed the listener sets (the speed per podcast while one of its
    /// episodes plays: `settings.use(podcast:)`).
    package let settings: ListeningSettings
    /// Keeps the titles heard on stations, and likes the one playing.
    package let history: TitleHistoryRecorder
    /// Keeps each episode's place; a front end names its episodes' tracks (`places.follow`).
    package let places: EpisodePlaces
    private let stations: StationReachability
    private let timeline: FailureTimeline

    package init(library: LibraryContext, podcast: Int64? = nil, timeline: FailureTimeline, logger: Logger) {
        settings = ListeningSettings(store: library.store, podcast: podcast, logger: logger)
        history = TitleHistoryRecorder(store: library.store, logger: logger)
        places = EpisodePlaces(store: library.store)
        stations = library.stations
        self.timeline = timeline
    }

    package func observe(_ update: PlayerUpdate) {
        timeline.observe(update)
        settings.observe(update)
        history.observe(update)
        stations.observe(update)
        places.observe(update)
    }
}
