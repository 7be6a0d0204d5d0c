import ArgumentParser
import AudioEngine
import Foundation
import Library
import PlayerCore
import PlayerKit
import TerminalApp

/// `tonearm play SOURCE...`: plays files, streams and playlists in order; or one thing from the
/// library: an episode (resuming where the listener stopped), a station or a session.
struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play audio files, internet radio streams and playlist URLs (.pls, .m3u) in order, or an episode, station or session from the library.")

    @Argument(help: "Audio files or http(s) URLs of streams or playlists, in order.")
    var sources: [String] = []

    @Option(help: "Play a podcast episode from the library by its id (see `tonearm podcast episodes`); resumes where you stopped.")
    var episode: Int64?

    @Option(help: "Play a station from the library by its name or id.")
    var station: String?

    @Option(help: "Play a session kept in the library by its name or id.")
    var session: String?

    @OptionGroup var playback: PlaybackOptions
    @OptionGroup var stream: StreamOptions
    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        let chosen = [!sources.isEmpty, episode != nil, station != nil, session != nil].filter { $0 }.count
        guard chosen == 1 else { throw ValidationError("give sources, or one of --episode, --station, --session") }
    }

    func run() async throws {
        logging.start()
        if let episode { return try await playEpisode(episode) }
        if let station { return try await playStation(station) }
        if let session { return try await playSession(session) }
        let tracks = sources.enumerated().map { Track.commandLineSource($1, index: $0, finite: stream.finite) }
        guard let request = PlayRequest(items: tracks.map { QueueItem(track: $0) }) else {
            throw ValidationError("give at least one source")
        }
        await CommandPlayback(playback.settings, services: stream.services(for: tracks))
            .run(.play(request), configuration: playback.configuration())
    }

    /// An episode without audio fails with its own error (no Retry); any other starts at
    /// the saved position (0 once it was finished), and its position is kept while it plays.
    private func playEpisode(_ id: Int64) async throws {
        let library = await LibraryContext.openForCommand()
        let (episode, podcast) = await library.attempt("playEpisode") { () throws(PlaybackError) in
            (try library.episodeToPlay(id: id), try library.store.episode(id: id).podcastID)
        }
        let recorder = EpisodeProgressRecorder(store: library.store, episodeID: id)
        await CommandPlayback(playback.settings, services: stream.services(for: []), library: library, podcast: podcast,
            observer: { recorder.observe($0) })
            .run(episode, configuration: playback.configuration())
    }

    private func playStation(_ name: String) async throws {
        let library = await LibraryContext.openForCommand()
        let track = await library.attempt("playStation") { () throws(PlaybackError) in try library.store.station(named: name).station.track }
        await CommandPlayback(playback.settings, services: stream.services(for: [track]), library: library)
            .run(.play(PlayRequest(track: track)), configuration: playback.configuration())
    }

    private func playSession(_ name: String) async throws {
        let library = await LibraryContext.openForCommand()
        let record = await library.attempt("playSession") { () throws(PlaybackError) in try library.store.session(named: name) }
        await CommandPlayback(playback.settings, library: library)
            .run(.play(SessionLoader.requestOrFail(for: record.path)), configuration: playback.configuration())
    }
}
