import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit

/// Playing one thing kept in the library from the command line: an episode (resuming where the
/// listener stopped, its position kept while it plays), a station, a session; and a session file.
extension CommandPlayback {
    /// An episode without audio fails with its own error (no Retry); any other starts at `start`
    /// (a search hit's time) or else the saved position (0 once it was finished).
    package static func playEpisode(
        _ id: Int64, from start: TimeInterval? = nil, settings: Settings, services: TonearmPlayer.Services,
        configuration: PlayerStateMachine.Configuration
    ) async {
        let library = await LibraryContext.openForCommand()
        let (episode, podcast) = await library.attempt("playEpisode") { () throws(PlaybackError) in
            (try library.episodeToPlay(id: id, from: start), try library.store.episode(id: id).podcastID)
        }
        if case .cannotPlay(let error) = episode, error.code == .streamUnavailable {
            // A live episode not yet on air: when it starts is the useful part.
            CommandFailure.exit(error, detail: error.underlying)
        }
        await CommandPlayback(settings, services: services, library: library, episode: id, podcast: podcast)
            .run(episode, configuration: configuration)
        // Where the listener stopped goes to their other devices.
        await SyncCommands.quietly(library: library, after: "playback")
    }

    /// Soundbite `number` (1-based) of an episode: from its start for its length at 1x, then a
    /// one-second fade. The listener's place in the episode is left where it was (no recorder):
    /// a taste of an episode is not listening to it.
    package static func playSoundbite(
        _ id: Int64, number: Int, settings: Settings, services: TonearmPlayer.Services, configuration: PlayerStateMachine.Configuration
    ) async {
        let library = await LibraryContext.openForCommand()
        let (episode, podcast, soundbite) = await library.attempt("playSoundbite") { () throws(PlaybackError) in
            let record = try library.store.episode(id: id)
            guard record.soundbites.indices.contains(number - 1) else {
                throw PlaybackError(.notInLibrary, underlying: "the episode has \(record.soundbites.count) soundbites, not \(number)")
            }
            let soundbite = record.soundbites[number - 1]
            return (try library.episodeToPlay(id: id, from: soundbite.start), record.podcastID, soundbite)
        }
        var configuration = configuration
        configuration.sleep = .after(soundbite.duration)
        configuration.sleepFadeDuration = PlayerStateMachine.Configuration.sleepFadeRange.lowerBound
        configuration.speed = .normal
        var settings = settings
        settings.speedGiven = true
        await CommandPlayback(settings, services: services, library: library, podcast: podcast).run(episode, configuration: configuration)
    }

    /// A station by its name or id, with `services` made for its track; one try only when it is
    /// usually unreachable (`StationReachability`).
    package static func playStation(
        _ name: String, settings: Settings, services: @Sendable ([Track]) -> TonearmPlayer.Services,
        configuration: PlayerStateMachine.Configuration
    ) async {
        let library = await LibraryContext.openForCommand()
        let record = await library.attempt("playStation") { () throws(PlaybackError) in try library.store.station(named: name) }
        let track = record.station.track
        DirectorySettings.countClick(of: record, network: library.network, logger: CommandLog.logger)
        // A station that has not answered for days gets one try, and every start is remembered
        // (the library's observers and `prepared`, as for whatever plays).
        await CommandPlayback(settings, services: services([track]), library: library)
            .run(.play(PlayRequest(track: track)), configuration: configuration)
    }

    /// A session by its name or id.
    package static func playSession(_ name: String, settings: Settings, configuration: PlayerStateMachine.Configuration) async {
        let library = await LibraryContext.openForCommand()
        let record = await library.attempt("playSession") { () throws(PlaybackError) in try library.store.session(named: name) }
        await CommandPlayback(settings, library: library)
            .run(.play(SessionLoader.requestOrFail(for: record.path)), configuration: configuration)
    }
}

extension SessionLoader {
    /// The request of the session file at `path`, or its typed error (with what is wrong in the
    /// user's own file, a key or a stage) and exit status 1.
    package static func requestOrFail(for path: String) -> PlayRequest {
        do throws(PlaybackError) {
            return try request(for: path)
        } catch {
            CommandFailure.exit(error, detail: error.underlying)
        }
    }
}

extension CommandPlayback {
    /// An album (its songs in disc and track order) or an artist (album after album) from the
    /// music index, played from the files under `musicDirectory`; a name the index does not hold
    /// is its typed error and exit status 1.
    package static func playMusic(
        album: String?, artist: String?, musicDirectory: URL, settings: Settings, configuration: PlayerStateMachine.Configuration
    ) async {
        let library = await LibraryContext.openForCommand()
        let songs = await library.attempt("playMusic") { () throws(PlaybackError) in try library.musicToPlay(album: album, artist: artist) }
        CommandLog.logger.info("music: playing from the index", metadata: ["songs": "\(songs.count)", "by": "\(album == nil ? "artist" : "album")"])
        guard let request = PlayRequest(items: songs.map { $0.queueItem(in: musicDirectory) }) else { return }
        await CommandPlayback(settings, library: library).run(.play(request), configuration: configuration)
    }
}
