import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit

/// The one place a player is wired to the library, whichever front end plays: the services read
/// and keep what the library knows (loudness measured before, transcripts, chapters, the network
/// client that counts retries, the error analytics), the configuration starts from the listener's
/// kept volume, speed, levelling and silence trimming, what is played passes the library's
/// lessons (a station that has not answered for days gets one try; a session's loudness is
/// measured once and kept), and every update reaches one observer list.
///
/// A front end makes one per player, opens its session with `services` and `configuration`, plays
/// through `prepared`, and feeds every update to `observers`.
package struct LibraryPlayerAssembly: Sendable {
    package let library: LibraryContext
    package let observers: LibraryPlayerObservers
    private let logger: Logger

    /// - Parameters:
    ///   - podcast: the podcast whose episode plays first, for its own speed.
    ///   - timeline: where the states before a failure go (`$XDG_STATE_HOME/tonearm` by default).
    package init(library: LibraryContext, podcast: Int64? = nil, timeline: FailureTimeline? = nil, logger: Logger) {
        self.library = library
        self.logger = logger
        observers = LibraryPlayerObservers(
            library: library, podcast: podcast, timeline: timeline ?? FailureTimeline(logger: logger), logger: logger)
    }

    /// `base` with the library's stores, network client and analytics.
    package func services(_ base: TonearmPlayer.Services) -> TonearmPlayer.Services {
        var services = base
        services.logger = logger
        services.network = library.network
        services.analytics = library.analytics
        services.loudnessStore = LibraryLoudnessStore(store: library.store, logger: logger)
        services.transcriptStore = LibraryTranscriptStore(store: library.store, logger: logger)
        services.knownChapters = LibraryChapters(store: library.store)
        return services
    }

    /// `base` starting from the listener's kept settings (the podcast's own speed when it has
    /// one), except those the run names itself.
    package func configuration(
        _ base: PlayerStateMachine.Configuration, podcast: Int64? = nil, except named: ListeningSettings.Named = []
    ) -> PlayerStateMachine.Configuration {
        var configuration = base
        ListeningSettings.applySaved(in: library.store, podcast: podcast, to: &configuration, except: named)
        if SilenceTrimmingSetting.isOn(in: library.store, podcast: podcast) { configuration.trimsSilence = true }
        return configuration
    }

    /// What to send the player for `replacement`: stations that have not answered for days get one
    /// try, and a session's stages carry their kept loudness (measured now when new).
    package func prepared(_ replacement: PlayerEvent.Replacement, loudness mode: LoudnessMode) async -> PlayerEvent.Replacement {
        await SessionLoudness.prepared(
            library.stations.prepared(replacement), mode: mode, store: LibraryLoudnessStore(store: library.store, logger: logger))
    }

    /// What to send the player for songs each levelled by its own album (an MPD queue, whose one
    /// request holds whatever the queue plays next, several albums perhaps): the stations' lessons
    /// only. No loudness is made common to the request, and nothing is measured before it plays.
    package func preparedSongs(_ replacement: PlayerEvent.Replacement) -> PlayerEvent.Replacement {
        library.stations.prepared(replacement)
    }

    /// Plays `replacement` on `player` at once, prepared as above.
    package func replace(with replacement: PlayerEvent.Replacement, on player: AudioPlayer) async throws(PlaybackError) {
        try await player.send(.replace(await prepared(replacement, loudness: await player.loudness.mode)))
    }
}
